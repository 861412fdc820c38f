#!/bin/sh
# The coffee machine of examples/models/coffee.aut as a shell script whose `button` in the
# right state hands the brewing to a background worker that answers 0.3 s later (a working
# child: not quiescent until it has written).
state=0
while read -r line; do
  case "$line" in
    water) [ "$state" = 0 ] && state=1 ;;
    pad) [ "$state" = 1 ] && state=2 ;;
    button)
      if [ "$state" = 2 ]; then (sleep 0.3; echo coffee) & else echo error; fi
      state=0 ;;
  esac
done
