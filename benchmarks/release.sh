#!/bin/sh
# The release run of the bots, one title a process, into benchmarks/results (where the games accumulate): search vs
# greedy first, at 3 players, then the other table sizes, then every line of the title (the games already in the
# results are not played again). Run from the checkout, e.g. one process a title:
#     for g in chartered coal-baron gold-fever heartland-hauling; do nice -n 19 benchmarks/release.sh $g & done
game=$1
python=${PYTHON:-.venv/bin/python}
for players in 3 4 2 5 6; do
    $python benchmarks/bots.py --games 100 --game "$game" --players $players --line "search vs greedy" \
        --results benchmarks/results
done
$python benchmarks/bots.py --games 100 --game "$game" --results benchmarks/results
