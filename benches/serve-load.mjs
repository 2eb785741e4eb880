// A load client for `pasang serve`, in another process and another
// language than the server: ROOMS rooms, two players each over raw
// WebSockets, each answering its turn after a think time drawn from
// THINK_MIN..THINK_MAX ms (a fast human), for SECONDS seconds; a game
// that ends is followed by a rematch. It measures, for every move, the
// time from sending it to the mover's own new state carrying it, and
// prints the 50th, 90th and 99th percentiles and the maximum.
//
//   node --experimental-websocket benches/serve-load.mjs 127.0.0.1:PORT [ROOMS] [SECONDS]
//
// (Node 22 and later have WebSocket without the flag.) It talks to
// 127.0.0.1 only and stops by itself. Start the server with limits that
// fit one address holding every socket, for example:
//
//   pasang serve --listen 127.0.0.1:8090 --data /tmp/load \
//     --max-per-address 4000 --max-rooms 2000 --max-rooms-per-address 2000

const [address = "127.0.0.1:8090", roomsArg = "1000", secondsArg = "60"] = process.argv.slice(2);
const host = address.split(":")[0];
if (host !== "127.0.0.1" && host !== "localhost") {
  console.error("serve-load: only 127.0.0.1 is a target for load");
  process.exit(2);
}
const ROOMS = Number(roomsArg);
const SECONDS = Number(secondsArg);
const THINK_MIN = 100;
const THINK_MAX = 300;
const url = `ws://${address}/ws`;

const latencies = [];
const counts = { moves: 0, games: 0, errors: 0, closed: 0 };
let stopping = false;

function think() {
  return THINK_MIN + Math.random() * (THINK_MAX - THINK_MIN);
}

// One player: its socket, seat and the move it waits to see.
class Player {
  constructor(onRoom) {
    this.seat = null;
    this.pending = null; // { ply, sent }
    this.timer = null;
    this.offered = 0;
    this.socket = new WebSocket(url);
    this.socket.onmessage = (event) => this.message(JSON.parse(event.data), onRoom);
    this.socket.onclose = () => {
      if (!stopping) counts.closed += 1;
    };
    this.opened = new Promise((resolve) => {
      this.socket.onopen = resolve;
    });
  }

  send(message) {
    if (this.socket.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  message(message, onRoom) {
    if (message.type === "room") {
      this.seat = message.seat;
      if (onRoom) onRoom(message.room);
    } else if (message.type === "error") {
      counts.errors += 1;
      this.pending = null;
    } else if (message.type === "state") {
      this.state(message);
    }
  }

  state(state) {
    const plies = state.moves.length;
    if (this.pending && plies >= this.pending.ply) {
      latencies.push(performance.now() - this.pending.sent);
      counts.moves += 1;
      this.pending = null;
    }
    if (stopping) return;
    if (state.over) {
      // Once per game: offer (or accept) the rematch.
      if (this.offered !== state.moves.length + 1) {
        this.offered = state.moves.length + 1;
        if (this.seat === "south") counts.games += 1;
        setTimeout(() => this.send({ type: "rematch" }), think());
      }
      return;
    }
    if (state.side !== this.seat || state.legal.length === 0 || this.pending || this.timer) return;
    const move = state.legal[Math.floor(Math.random() * state.legal.length)].move;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (stopping) return;
      this.pending = { ply: plies + 1, sent: performance.now() };
      this.send({ type: "move", move, ply: plies + 1 });
    }, think());
  }
}

async function room() {
  let code;
  const ready = new Promise((resolve) => {
    code = resolve;
  });
  const creator = new Player((room) => code(room));
  await creator.opened;
  creator.send({ type: "create" });
  const room = await ready;
  const joiner = new Player(null);
  await joiner.opened;
  joiner.send({ type: "join", room });
  return [creator, joiner];
}

const players = [];
const started = performance.now();
// Rooms open over the first seconds, 50 at a time.
for (let i = 0; i < ROOMS; i += 50) {
  const batch = [];
  for (let j = i; j < Math.min(ROOMS, i + 50); j++) batch.push(room());
  for (const pair of await Promise.all(batch)) players.push(...pair);
}
const opened = (performance.now() - started) / 1000;
// Latencies from the ramp are kept: every move counts.
await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
stopping = true;
for (const player of players) player.socket.close();

latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? NaN;
const ms = (x) => x.toFixed(1);
console.log(
  `serve-load: ${ROOMS} rooms (${players.length} sockets, opened in ${opened.toFixed(1)} s), ` +
    `${SECONDS} s of play, think ${THINK_MIN}-${THINK_MAX} ms: ${counts.moves} moves ` +
    `(${(counts.moves / SECONDS).toFixed(0)}/s), ${counts.games} games ended, ` +
    `${counts.errors} refusals, ${counts.closed} sockets closed by the server`,
);
console.log(
  `move to own state: p50 ${ms(at(0.5))} ms, p90 ${ms(at(0.9))} ms, p99 ${ms(at(0.99))} ms, ` +
    `max ${ms(latencies[latencies.length - 1] ?? NaN)} ms`,
);
process.exit(0);
