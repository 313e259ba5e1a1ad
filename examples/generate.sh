#!/bin/sh
# How the example games were made: bots through the real referee, each move a signed move file.
# Re-run for one game after a change of its rules_version (the tests check that these games still verify):
#   examples/generate.sh coal-baron      (or gold-fever, chartered; no argument: all of them)
# Coal Baron's examples are played by greedy bots, La Fièvre de l'Or's by random bots (they reach more events).
set -eu
cd "$(dirname "$0")"
games=${1:-"coal-baron gold-fever chartered"}
for game in $games; do
    rm -rf "$game"
    mkdir -p "$game"
done
case " $games " in *" coal-baron "*)
pbem demo coal-baron --bot greedy --players 2 --seed cb-2p --dir coal-baron/cb-2p --save-moves > /dev/null
pbem demo coal-baron --bot greedy --players 3 --seed cb-3p --dir coal-baron/cb-3p > /dev/null
pbem demo coal-baron --bot greedy --players 4 --seed cb-4p --dir coal-baron/cb-4p > /dev/null
pbem demo coal-baron --bot greedy --players 3 --seed cb-phase-3p --option phase-cards=on \
    --dir coal-baron/cb-phase-3p-in-progress --moves 60 --save-moves > /dev/null
esac
case " $games " in *" gold-fever "*)
pbem demo gold-fever --bot random --players 3 --seed gf-3p --dir gold-fever/gf-3p --save-moves > /dev/null
pbem demo gold-fever --bot random --players 5 --seed gf-5p --dir gold-fever/gf-5p > /dev/null
pbem demo gold-fever --bot random --players 4 --seed gf-4p --dir gold-fever/gf-4p-in-progress --moves 40 \
    --save-moves > /dev/null
esac
case " $games " in *" chartered "*)
pbem demo chartered --bot random --players 2 --seed ch-2p --dir chartered/ch-2p > /dev/null
pbem demo chartered --bot random --players 5 --seed ch-5p --dir chartered/ch-5p-in-progress --moves 40 \
    --save-moves > /dev/null
esac
# The lock, the last applied bundle and the key that authenticates bundles are the referee machine's business,
# not part of an example (a move on a copy makes a new key).
find . -name .lock -delete
find . -name .txn -type d -exec rm -rf {} +
find . -path '*/referee/txn.key' -delete
# The game played by git (a bundle of its repository, a game of Coal Baron): see git/README.md.
case " $games " in *" coal-baron "*)
python3 git/make_example.py > /dev/null
esac
