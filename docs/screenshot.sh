#!/bin/sh
# Takes a picture of the board of `pasang gui` in headless Chromium.
#
#   docs/screenshot.sh OUT.png [PAGE] [WIDTHxHEIGHT] [SECONDS]
#
# PAGE is the part of the address after the server's (by default the worked
# opening of docs/rules.md under analysis with three lines), SECONDS how long
# the page runs before the picture is taken (the engine analyses meanwhile).
# A width under 600 is laid out as a phone's touch screen. PASANG names the
# binary (default target/release/pasang, built by `cargo build --release`),
# CHROMIUM the browser (default chromium), SERVER=serve takes the picture
# on `pasang serve` (rooms) instead of `pasang gui`. OUT ending in .jpg is
# written as JPEG (quality 80), else PNG. Needs only a POSIX shell,
# coreutils (base64, mkfifo) and Chromium.
# docs/development.md describes it.
set -eu

out=${1:?usage: docs/screenshot.sh OUT.png [PAGE] [WIDTHxHEIGHT] [SECONDS]}
page=${2:-'?mode=analyse&multipv=3&moves=c%20j%20b4c4n%20k7j7w%20c4c7ew%20j7k7s'}
size=${3:-1200x760}
seconds=${4:-10}
pasang=${PASANG:-target/release/pasang}
chromium=${CHROMIUM:-chromium}

fail() {
    echo "screenshot.sh: $*" >&2
    exit 1
}
command -v "$chromium" >/dev/null 2>&1 ||
    fail "no '$chromium' (apt-get install chromium, or set CHROMIUM)"
[ -x "$pasang" ] || fail "no '$pasang' (cargo build --release, or set PASANG)"

scratch=$(mktemp -d)
server=
browser=
cleanup() {
    status=$?
    set +e
    for process in $browser $server; do
        kill "$process" 2>/dev/null
        wait "$process" 2>/dev/null
    done
    rm -rf "$scratch"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Port 0: the server takes a free port and prints its address first.
: >"$scratch/server.out"
case ${SERVER:-gui} in
gui) "$pasang" gui --port 0 >"$scratch/server.out" 2>"$scratch/server.err" & ;;
serve)
    "$pasang" serve --listen 127.0.0.1:0 --data "$scratch/rooms" \
        >"$scratch/server.out" 2>"$scratch/server.err" &
    ;;
*) fail "SERVER is gui or serve, not '$SERVER'" ;;
esac
server=$!
address=
for _ in $(seq 100); do
    address=$(sed -n 's#.*\(http://[^ ]*/\).*#\1#p' "$scratch/server.out")
    [ -n "$address" ] && break
    sleep 0.1
done
[ -n "$address" ] || fail "pasang ${SERVER:-gui} printed no address: $(cat "$scratch/server.err")"

# Chromium is driven by its DevTools protocol over a pipe (JSON messages
# ended by NUL: commands on fd 3, answers on fd 4), so that the page is
# laid out at exactly WIDTHxHEIGHT and the picture is taken after SECONDS of
# real time, whatever the page does meanwhile.
width=${size%x*}
height=${size#*x}
mobile=false
[ "$width" -lt 600 ] && mobile=true
mkfifo "$scratch/commands"
exec 5<>"$scratch/commands"
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
    --no-first-run --disable-background-networking --disable-component-update \
    --disable-sync --hide-scrollbars --user-data-dir="$scratch/profile" \
    --window-size="$width,$height" --remote-debugging-pipe about:blank \
    3<&5 4>"$scratch/answers" 2>"$scratch/chromium.err" &
browser=$!

# Sends command number $1, JSON $2; prints its answer (waiting up to 60 s).
call() {
    printf '%s\0' "$2" >&5
    for _ in $(seq 600); do
        answer=$(tr '\0' '\n' <"$scratch/answers" | grep "^{\"id\":$1," || true)
        if [ -n "$answer" ]; then
            echo "$answer"
            return
        fi
        kill -0 "$browser" 2>/dev/null || fail "chromium ended: $(tail -5 "$scratch/chromium.err")"
        sleep 0.1
    done
    fail "chromium did not answer command $1"
}

target=$(call 1 '{"id":1,"method":"Target.getTargets"}' |
    grep -o '"targetId":"[0-9A-F]*","type":"page"' | head -1 | cut -d'"' -f4)
[ -n "$target" ] || fail "chromium shows no page"
session=$(call 2 "{\"id\":2,\"method\":\"Target.attachToTarget\",\"params\":{\"targetId\":\"$target\",\"flatten\":true}}" |
    grep -o '"sessionId":"[0-9A-F]*"' | head -1 | cut -d'"' -f4)
[ -n "$session" ] || fail "cannot attach to the page"
call 3 "{\"id\":3,\"sessionId\":\"$session\",\"method\":\"Emulation.setDeviceMetricsOverride\",\"params\":{\"width\":$width,\"height\":$height,\"deviceScaleFactor\":1,\"mobile\":$mobile}}" >/dev/null
if [ "$mobile" = true ]; then
    # A phone's screen is touched: the page says "tap" there.
    call 6 "{\"id\":6,\"sessionId\":\"$session\",\"method\":\"Emulation.setTouchEmulationEnabled\",\"params\":{\"enabled\":true,\"maxTouchPoints\":5}}" >/dev/null
fi
call 4 "{\"id\":4,\"sessionId\":\"$session\",\"method\":\"Page.navigate\",\"params\":{\"url\":\"$address$page\"}}" >/dev/null
sleep "$seconds"
case $out in
*.jpg) picture='"format":"jpeg","quality":80' ;;
*) picture='"format":"png"' ;;
esac
call 5 "{\"id\":5,\"sessionId\":\"$session\",\"method\":\"Page.captureScreenshot\",\"params\":{$picture}}" |
    sed -n 's/.*"data":"\([^"]*\)".*/\1/p' | base64 -d >"$scratch/shot.png"
[ -s "$scratch/shot.png" ] || fail "chromium gave no picture"
printf '%s\0' '{"id":6,"method":"Browser.close"}' >&5
cp "$scratch/shot.png" "$out"
echo "screenshot.sh: $out (${width}x$height, ${seconds} s, $address$page)"
