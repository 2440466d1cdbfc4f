### The games: their names, their rules, their terms and options, who lost.
### The players' words stay as they say them in Russian (RULES.md): рыба, козёл, базар.
### In English.

variant-kozel = Kozel (Goat)
variant-classic = Classic
variant-sea_kozel = Sea Kozel (Sea Goat)
variant-osel = Osel (Donkey)
variant-sport = Sport dominoes
variant-all_fives = All Fives
variant-threes_and_fives = Threes and Fives
variant-bergen = Bergen
variant-dubli = Doubles (Dubli)
variant-blitz = Blitz
variant-cross = Cross
variant-shesterka = Sixes
variant-dark = In the Dark

term-fish = fish (blocked)
term-goat = goat
term-bazaar = boneyard
term-eggs = eggs
term-knock = knock
term-fisherman = fisherman

fish-each = each scores their own
fish-max_takes_all = all to the highest hand
fish-fisherman_takes_all = all to the fisherman

layout-first_double = first double
layout-spinner = opening double only

rules-kozel =
    <b>Kozel (Goat)</b>: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } is the goat.
    • 2–4 players, 7 tiles each; the rest is the boneyard. Four may play in pairs.
    • The holder of 1|1 leads (else 2|2, … 6|6, 0|0).
    • Lay a tile on an end with the same number. If you can play, you must.
    • Cannot play: draw until a tile fits; boneyard empty: knock.
    • A round ends in a domino, when someone has laid all their tiles, or in a fish: nobody can play.
    • Points are the pips left in your hand (a lone 0|0 counts 10). Until your account is open, rounds under 13 are remembered (+N).
    • Fish: the player with the most points takes them all; a tie makes eggs that carry over.
rules-classic =
    <b>Classic</b>: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players: two get 7 tiles each, three or four get 5; the rest is the boneyard. Four may play in pairs.
    • The holder of 6|6 leads (else 5|5, … 0|0; with no doubles at all, the highest tile). The next round is led by the last round's winner, with any tile.
    • Lay a tile on an end with the same number. If you can play, you must.
    • Cannot play: draw until a tile fits; boneyard empty: knock.
    • Whoever goes out wins the round and scores all the pips in the opponents' hands (a lone 0|0 in an opponent's hand counts 25).
    • Fish, when nobody can play: the player with the fewest pips wins the round and scores the opponents' pips minus their own (a lone 0|0 is 0 pips, the fewest; in an opponent's hand it counts 25). A tie for the fewest scores nobody.
rules-sea_kozel =
    <b>Sea Kozel</b>: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • Two players, or four (pairs allowed), 7 tiles each; the rest is the boneyard.
    • The holder of 1|1 leads (else 2|2, … 6|6, 0|0). The next round is led by whoever went out or made the fish, with any tile.
    • Lay a tile on an end with the same number. If you can play, you must. Two doubles that fit both ends may be laid in one turn.
    • Cannot play: draw until a tile fits; boneyard empty: knock.
    • Only the round's winner scores (whoever went out; in a fish, the one with fewer pips): the opponents' pips, if they make 25 or more.
    • A lone 0|0 left in hand counts 25, a lone 6|6 50, both together 75.
    • Going out with 0|0 as the last tile is the “naked goat”: it wins the match at once.
    • A tied fish makes eggs: the next round's winner takes them.
rules-osel =
    <b>Osel (Donkey)</b>: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } is the donkey.
    • 2–4 players, 7 tiles each; the rest is the boneyard. Four may play in pairs.
    • The holder of 1|1 leads (else 2|2, … 6|6, 0|0). That double is the spinner: once it has a tile on its left and right, tiles go on its top and bottom too.
    • Lay a tile on an end with the same number. If you can play, you must.
    • Instead of one tile you may lay several doubles at once, each on its own end.
    • A double may be laid face down: that end is closed for the rest of the round. Closing with your last tile is going out.
    • Cannot play: draw until a tile fits; boneyard empty: knock. The next round is led by whoever went out or made the fish, with any tile.
    • Points are the pips left in your hand (a lone 0|0 counts 10, but not in a fish). Until your account is open, rounds under 13 are remembered (+N).
    • Fish: everyone scores their own hand (the lobby also offers “all to the highest hand” and “all to the fisherman”).
rules-sport =
    <b>Sport dominoes</b>: two pairs; the first pair to reach { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • Exactly 4 players, partners opposite; 7 tiles each, no boneyard.
    • Before the first round everyone turns a tile: the highest (by value, a tie by the higher half) leads, with any tile. Later rounds are led by whoever went out or made the fish.
    • Lay a tile on an end with the same number. If you can play, you must; if not, pass.
    • When a player goes out, their pair scores all the pips left in all four hands.
    • Fish: the pair with fewer pips in hand scores them all; equal pips make a draw and nobody scores.
    • Sport turn times: 5 s with one possible move, 20 s with several, 60 s when a move could make a fish.
rules-all_fives =
    <b>All Fives</b>: points are scored during play; the first to reach { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players: two get 7 tiles each, three or four get 5; the rest is the boneyard. Four may play in pairs, a pair scoring together.
    • Who leads is drawn by lot, with any tile. Each later round is led by the winner of the one before.
    • Lay a tile on an end with the same number. The first double laid is the spinner: once tiles lie on both its sides, tiles go above and below it too. A lobby option makes only a double that opens the round the spinner; a round opened with any other tile stays a single line.
    • After every move add up the open ends: a double across an end counts both halves, and so does the spinner until tiles lie on both its sides. A multiple of 5 is scored by the mover: 5|5 as the first tile scores 10, and 0|5 laid on its right scores 10 again (5 + 5 + 0).
    • If nothing fits, draw from the boneyard until a tile fits; when it is empty, knock.
    • Whoever goes out scores the pips in the other hands, rounded to the nearest 5 (23 → 25).
    • A block (nobody can move): the lowest hand scores the difference to each other hand, rounded to 5 too.
    • The match ends as soon as someone reaches { $target }, even in the middle of a round.
rules-threes_and_fives =
    <b>Threes and Fives</b>: points are scored during play; the first to reach { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players: two get 7 tiles each, three or four get 5; the rest is the boneyard. Four may play in pairs, a pair scoring together.
    • Who leads is drawn by lot, with any tile. Each later round is led by the winner of the one before.
    • Lay a tile on an end with the same number. The first double laid is the spinner: once tiles lie on both its sides, tiles go above and below it too. A lobby option makes only a double that opens the round the spinner; a round opened with any other tile stays a single line.
    • After every move add up the open ends: a double across an end counts both halves, and so does the spinner until tiles lie on both its sides. A multiple of 3 scores a third of it, a multiple of 5 a fifth; 15 is both and scores 5 + 3 = 8. So 6|3 as the first tile adds up to 9 and scores 3; 5|5 adds up to 10 and scores 2.
    • If nothing fits, draw from the boneyard until a tile fits; when it is empty, knock.
    • Whoever goes out scores the pips in the other hands, rounded to the nearest 5 (23 → 25).
    • A block (nobody can move): the lowest hand scores the difference to each other hand, rounded to 5 too.
    • The match ends as soon as someone reaches { $target }, even in the middle of a round.
    • The lobby also offers the English pub game, to 61 or 121: there going out and blocks score the pips divided by 5 as well (23 → 25 → 5).
rules-bergen =
    <b>Bergen</b>: points are scored during play; the first to reach { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players: two or three get 6 tiles each, four get 5; the rest is the boneyard. Four may play in pairs, a pair scoring together. Two or four play to 15, three to 10 (the lobby offers the other).
    • The first round is led by whoever holds 0|0 (else 1|1, … 6|6; with no doubles dealt, the lowest tile). Each later round is led by the winner of the one before, with any tile.
    • Lay a tile on an end with the same number; doubles lie across. If nothing fits, draw from the boneyard until a tile fits; the last two tiles are never drawn, so then you knock.
    • Both ends showing the same number after your move score 2 (so does leading with a double). A double across one end and the same number at the other score 3: 4|4 across one end and a 4 at the other.
    • Going out scores 2. A block (nobody can move): 2 to the player with no double in hand; if several have none, to the lowest hand of them; if all hold doubles, to the lowest double.
    • The match ends as soon as someone reaches { $target }, even in the middle of a round.
rules-dubli =
    <b>Doubles</b>, a children's game: points are scored during play; the first to reach { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players: two get 7 tiles each, three or four 5; the rest is the boneyard. Four may play in pairs, a pair scoring together.
    • The first round is led by whoever holds 0|0 (else 1|1, … 6|6; with no doubles dealt, the lowest tile). Each later round is led by the winner of the one before, with any tile.
    • Lay a tile on an end with the same number; doubles lie across. If nothing fits, draw from the boneyard until a tile fits; the last two tiles are never drawn, so then you knock.
    • Laying a double scores 1. Both ends showing the same number after your move score 1; a double at one end and the same number at the other 2. They add up: 5|5 on a 5 while the other end shows 5 scores 1 + 2 = 3.
    • Going out scores 2. At the round's end everyone left with tiles but no double scores 1.
    • The match ends as soon as someone reaches { $target }, even in the middle of a round.
rules-blitz =
    <b>Blitz</b>, a children's game: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players, and all the tiles are shared out: two get 14 each, four get 7, three get 9 (the one left over stays face down all round). No boneyard. Four may play in pairs.
    • The first round is led by whoever holds 0|0 (else 1|1, … 6|6). Each later round is led by the winner of the one before, with any tile.
    • Lay a tile on an end with the same number. A turn may lay any number of tiles one after another, each on any end as the table then stands. Done? Press “✔️ End turn”; once nothing more fits, the turn passes by itself.
    • Cannot play: knock.
    • Whoever goes out first wins the round and scores all the pips in the opponents' hands.
    • Fish, when nobody can play: the player with the fewest pips wins the round and scores the opponents' pips minus their own. A tie for the fewest scores nobody.
rules-cross =
    <b>Cross</b>, a children's game: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players, and all the tiles are shared out: two get 14 each, four get 7, three get 9 (the one left over stays face down all round). No boneyard. Four may play in pairs.
    • Every round starts with a double, laid by whoever holds 0|0 (else 1|1, … 6|6). That double is the centre of the cross: once tiles lie on both its sides, tiles are laid above and below it too.
    • Lay a tile on an end with the same number. A turn may lay any number of tiles one after another, each on any open end. Done? Press “✔️ End turn”; once nothing more fits, the turn passes by itself.
    • Cannot play: knock.
    • Whoever goes out first wins the round and scores all the pips in the opponents' hands.
    • Fish, when nobody can play: the player with the fewest pips wins the round and scores the opponents' pips minus their own. A tie for the fewest scores nobody.
rules-shesterka =
    <b>Sixes</b>, a children's game: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players: two get 7 tiles each, three or four 5; the rest is the boneyard. Four may play in pairs.
    • The first round is led by whoever holds 0|0 (else 1|1, … 6|6; with no doubles dealt, the lowest tile). Each later round is led by the winner of the one before, with any tile.
    • Halves that touch add up to 6: an end showing 2 takes a tile with a 4, a 3 takes a 3, a 0 takes a 6 and a 6 a blank; the end then shows the tile's other half. Doubles lie across.
    • One tile a turn. If nothing fits, draw from the boneyard until a tile fits; boneyard empty: knock.
    • Whoever goes out first wins the round and scores all the pips in the opponents' hands.
    • Fish, when nobody can play: the player with the fewest pips wins the round and scores the opponents' pips minus their own. A tie for the fewest scores nobody.
rules-dark =
    <b>In the Dark</b>, a children's game: whoever first reaches { $target } { $target ->
        [one] point
       *[other] points
    } wins.
    • 2–4 players: two get 7 tiles each, three or four get 5; the rest is the boneyard. Four may play in pairs.
    • Nobody sees your tiles, not even you: they lie in a face-down stack. Who leads is drawn by lot; each later round is led by the winner of the one before.
    • On your turn press “⬛ Turn up the top tile”: the top tile is turned up and, if it fits an end with the same number (with ends 2 and 5, say, 2|6 or 4|5 fits) or the table is empty, it goes on the table; if it fits both ends, choose the end to lay it on. If not, it goes under your stack and a boneyard tile (if any is left) goes face down on top. Either way the turn passes.
    • When 3 tiles are left in your stack they are turned up, for your eyes only. From then on a turn may lay several tiles in a row; done? Press “✔️ End turn”. Cannot play: draw until a tile fits; boneyard empty: knock.
    • Whoever first lays all their tiles, or whose tile made the fish (nobody can play), wins the round and scores all the pips in the opponents' hands.

loser-kozel = 🐐 Goat: { $names }.
loser-osel = 🐴 Donkey: { $names }.
loser-classic = Loss: { $names }.
loser-sea_kozel = Loss: { $names }.
loser-sport = Loss: { $names }.
loser-all_fives = Loss: { $names }.
loser-threes_and_fives = Loss: { $names }.
loser-bergen = Loss: { $names }.
loser-dubli = Loss: { $names }.
loser-blitz = Loss: { $names }.
loser-cross = Loss: { $names }.
loser-shesterka = Loss: { $names }.
loser-dark = Loss: { $names }.
