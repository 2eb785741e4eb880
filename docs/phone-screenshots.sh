#!/bin/sh
# Takes the phone pictures of docs/web.md: every mode of the board page,
# and the first visit's welcome, at 390x844, in English and in Malay
# (docs/img/phone/MODE-LANG.jpg), each through docs/screenshot.sh.
#
#   cargo build --release && docs/phone-screenshots.sh [SECONDS]
#
# SECONDS (4 by default) is how long each page runs before its picture:
# the engine's lines and moves differ a little from run to run.
set -eu
seconds=${1:-4}
here=$(dirname "$0")
mkdir -p "$here/img/phone"
opening='moves=c%20j%20b4c4n%20k7j7w%20c4c7ew%20j7k7s'
for lang in en ms; do
    while read -r mode server page; do
        SERVER=$server "$here/screenshot.sh" "$here/img/phone/$mode-$lang.jpg" \
            "$page&lang=$lang" 390x844 "$seconds"
    done <<MODES
welcome gui ?
play gui ?mode=play&side=south&skill=3&$opening
analyse gui ?mode=analyse&multipv=3&$opening
watch gui ?mode=watch&movetime=300
review gui ?mode=review&$opening
learn gui ?mode=learn&lesson=ka-entry
puzzle gui ?mode=puzzle&id=e6ad0820cd0f
friend gui ?mode=friend&south=Ali&north=Siti&$opening
rooms serve ?mode=friend&room=new&side=south
MODES
done
