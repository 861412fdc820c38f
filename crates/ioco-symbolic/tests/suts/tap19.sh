#!/bin/sh
# TAP19 Example 4 as a process (line wire format): inX p adds p to x and echoes outX x; at l0
# with x > 15 it says done. Argument: correct | plus1 | crash | garbage.
mode=${1:-correct}
x=0
loc=0
while read -r gate p; do
  if [ "$gate" = inX ] && [ "$loc" = 0 ]; then
    x=$((x + p))
    case $mode in
      plus1) echo "outX $((x + 1))" ;;
      garbage) echo "outX seven" ;;
      crash) exit 3 ;;
      *) echo "outX $x" ;;
    esac
    if [ "$x" -gt 15 ]; then echo done; loc=2; fi
  fi
done
