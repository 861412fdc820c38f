#!/bin/sh
# The Greeter of examples/torxakis/lucky-people.ioco as a process (line wire format):
# `Hello "Ann"` is answered with `Reply Greeting("Ann","Hello, Ann!")`. Argument: correct |
# nocomma (forgets the comma) | long (also greets names longer than 8 letters, which the spec
# never sends, so it passes too).
mode=${1:-correct}
while read -r gate name; do
  if [ "$gate" = Hello ]; then
    n=${name#\"}
    n=${n%\"}
    case $mode in
      nocomma) echo "Reply Greeting(\"$n\",\"Hello $n!\")" ;;
      *) echo "Reply Greeting(\"$n\",\"Hello, $n!\")" ;;
    esac
  fi
done
