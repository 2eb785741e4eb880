// The cost of a join and a leave in a big room, measured from outside:
// one room with two players and SPECTATORS spectators, then JOINS more
// spectators each join, wait for their `room` message, and leave. It
// prints the time from a join sent to its `room` message (median and
// maximum), and, given the server's process id, the server's CPU time
// per join and leave, read from /proc (utime + stime).
//
//   node --experimental-websocket benches/serve-big-room.mjs 127.0.0.1:PORT [SPECTATORS] [JOINS] [SERVER_PID]
//
// Start the server with limits that let one address hold the sockets:
//
//   pasang serve --listen 127.0.0.1:8090 --data /tmp/big \
//     --max-per-address 4000 --max-connections 4000

import { readFileSync } from "node:fs";

const [address = "127.0.0.1:8090", spectatorsArg = "1000", joinsArg = "50", pidArg] =
  process.argv.slice(2);
const host = address.split(":")[0];
if (host !== "127.0.0.1" && host !== "localhost") {
  console.error("serve-big-room: only 127.0.0.1 is a target for load");
  process.exit(2);
}
const SPECTATORS = Number(spectatorsArg);
const JOINS = Number(joinsArg);
const url = `ws://${address}/ws`;

// Opens a socket and resolves with it and its first `room` message
// after `first` is sent.
function member(first) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    let sent = 0;
    socket.onopen = () => {
      sent = performance.now();
      socket.send(JSON.stringify(first));
    };
    socket.onerror = () => reject(new Error("socket error"));
    socket.onclose = () => reject(new Error("closed by the server"));
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "room") {
        // Keep reading (and dropping) what follows: a socket that stops
        // reading is closed by the server after 64 frames.
        socket.onmessage = () => {};
        socket.onclose = null;
        resolve({ socket, room: message.room, waited: performance.now() - sent });
      } else if (message.type === "error") {
        reject(new Error(`${message.kind}: ${message.message}`));
      }
    };
  });
}

// Server CPU seconds so far (utime + stime, in clock ticks of 1/100 s).
function cpuSeconds() {
  if (!pidArg) return NaN;
  const fields = readFileSync(`/proc/${pidArg}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const creator = await member({ type: "create" });
const code = creator.room;
await member({ type: "join", room: code });
const crowd = [];
// Ten at a time: every join tells every member, and a member more than
// 64 frames behind is closed, so a burst of joins would shed the crowd.
for (let i = 0; i < SPECTATORS; i += 10) {
  const batch = [];
  for (let j = i; j < Math.min(SPECTATORS, i + 10); j++) batch.push(member({ type: "join", room: code }));
  crowd.push(...(await Promise.all(batch)));
}
// Let the crowd's own joins settle before measuring.
await new Promise((resolve) => setTimeout(resolve, 2000));

const waits = [];
const before = cpuSeconds();
for (let i = 0; i < JOINS; i++) {
  const joiner = await member({ type: "join", room: code });
  waits.push(joiner.waited);
  joiner.socket.close();
  await new Promise((resolve) => setTimeout(resolve, 20));
}
await new Promise((resolve) => setTimeout(resolve, 500));
const cpu = cpuSeconds() - before;

waits.sort((a, b) => a - b);
const median = waits[Math.floor(waits.length / 2)];
console.log(
  `serve-big-room: ${SPECTATORS} spectators, ${JOINS} joins and leaves: ` +
    `join to room message median ${median.toFixed(1)} ms, max ${waits[waits.length - 1].toFixed(1)} ms` +
    (pidArg ? `; server CPU ${((cpu * 1000) / JOINS).toFixed(1)} ms a join and leave` : ""),
);
for (const { socket } of crowd) socket.close();
creator.socket.close();
process.exit(0);
