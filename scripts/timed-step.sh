#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs one step of `make test` and prints how long it took, so that a CI log
# shows where the run's time goes. Usage: timed-step.sh NAME COMMAND...
name=$1
shift
start=$(date +%s)
status=0
"$@" || status=$?
echo "make test: step '$name' took $(( $(date +%s) - start )) s (exit $status)"
exit $status
