# The page in English (docs/web.md, "Languages"). Fluent syntax: https://projectfluent.org/
# Every message here is used by the page, and es.ftl has the same ones: the test
# crates/sowing-web/tests/catalogues.rs checks both.

language-name = English
language-choice =
    .title = Language
    .aria-label = Language

## The page's frame (index.html)

nav-learn = Learn
    .title = The rules, shown on the board
nav-new = New game
    .title = New game (n)
nav-saved = Saved games
nav-upload =
    .title = Upload a game record to replay or continue it
nav-upload-text = Upload record
offline = The server cannot be reached just now — trying again by itself. Your game is safe: every move was saved when it was played. Live games, accounts, the lobby and tournaments need the connection. A game against the computer can still be started: it is kept here and sent once the server is back.
offline-needs-server = Matches and live games need the connection: this one cannot start while the server is away.
play-section =
    .aria-label = Board
learn-close = Close Learn
learn-how = Each rule on the board: watch it, then try it.
lesson-watch = Watch the example
lesson-try = Try it yourself
lesson-next = Next rule ▶
evalbar =
    .aria-label = Evaluation
    .title = Evaluation: South at the bottom of the bar
board =
    .aria-label = The board
legend-legal = you may sow
legend-last = the last move
legend-hint = the hint
legend-values = +4 / −4: what sowing that pit wins or loses with perfect play
btn-step = Play next move ▶
    .title = Play the next move with the sowing animated
btn-live = Back to the game
btn-undo = Undo
    .title = Undo (u)
btn-redo = Redo
    .title = Redo (r)
btn-pass = Pass
    .title = Pass (p)
btn-hint = Hint
    .title = Hint (?)
btn-flip = Flip board
    .title = Turn the board round (t)
btn-skip = Skip animation
    .title = Skip the animation (space)
eval-on = Evaluation
tables-on = Perfect-play values
tables-on-label =
    .title = Inside the endgame tables, each playable pit shows the exact value of sowing it
speed = Speed
moves-aside =
    .aria-label = Moves
moves-title = Moves
download = Download record
keys-title = Keyboard
keys-text = Pit letters play a pit · <kbd>p</kbd> pass · <kbd>u</kbd> undo · <kbd>r</kbd> redo · <kbd>t</kbd> flip · <kbd>?</kbd> hint · <kbd>Space</kbd> skip animation · <kbd>←</kbd> <kbd>→</kbd> <kbd>Home</kbd> <kbd>End</kbd> move through the game · <kbd>n</kbd> new game. <kbd>Tab</kbd> reaches the playable pits; <kbd>Enter</kbd> plays.

## The new-game dialog

new-game-title = New game
f-game = Game
about-learn = Learn the rules on the board first
f-rounds = Rounds
f-time = Computer thinking time
think-time = { $seconds } s
btn-start = Start
btn-cancel = Cancel
seat-south = South ({ $place ->
        [left] left
        [right] right
        [top] top
       *[bottom] bottom
    }, moves first)
seat-north = North ({ $place ->
        [left] left
        [right] right
        [bottom] bottom
       *[top] top
    })
player-option = { $kind ->
        [human] Person at this screen
        [level] Computer, level { $level }
        [greedy] Computer, greedy
        [random] Computer, random
       *[other] Computer, { $spec }
    }
entry-board = { $game } (2×{ $pits })
entry-single = { $game }, single game
entry-match = { $game }, match of rounds
rule-ref = rule { $rule }
about-hoyito-ii = Two rows of pits, four seeds in each. Take all the seeds of one of your pits and sow them one by one to the right, round the board. Where the last seed lands decides: a pit of exactly four is a casa — you take it (and the fours just behind it), and move again; an empty pit ends your move; any other pit is picked up and sown on (a relay). Most seeds taken wins.
about-hoyito-ii-seat = South moves first, and that is the harder seat: with best play the start is worth about { $seeds } seeds to North.
about-hoyito-ii-seat12 = South moves first, and that is the harder seat: a deep search (20 million positions) values the 2×12 start at about { $seeds } seeds to North.
about-solved-north = South moves first, and that is the harder seat — solved: with best play North wins by { $seeds } seeds.
about-hoyito-iii = Hoyito II with two changes: a casa takes only the pit where the last seed landed (no chain), and the last four seeds go to whoever takes the four before them — or, in a match, to the previous round’s winner.
about-hoyito-iii-seat = South moves first, and that is the harder seat: with best play the start is worth about { $seeds } seeds to North. In a match the starter alternates.
about-ayoayo = Two rows of pits and a store for each player. Sow from one of your pits, skipping the pit you lifted; a lap that ends in an occupied pit is picked up and sown on. When the last seed lands in an empty pit of your own row, you capture it and the seeds across from it. If your opponent’s row is empty you must give them seeds. Most seeds in your store wins.
about-ayoayo-seat = South moves first, and that is the easier seat: North’s is the harder. A deep search from the start position values it at about { $seeds } seeds to South.
about-solved-south = South moves first, and that is the easier seat: North’s is the harder — solved: with best play South wins by { $seeds } seeds.
about-solved-draw = South moves first, and neither seat is the harder — solved: with best play the game is drawn.
about-bounded = South moves first. Not solved yet, but proven: with best play North wins by at most { $north } seeds, and South by at most { $south }.
about-bounded-north = South moves first, and that is the harder seat — not solved yet, but proven: with best play North wins, by { $least } to { $most } seeds.
about-bounded-south = South moves first, and that is the easier seat: North’s is the harder — not solved yet, but proven: with best play South wins, by { $least } to { $most } seeds.

# The rule options (GET /api/rules): the name, `.about`, and one attribute per value.
option-casa-rows = Casas
    .about = Which pits of four are casas: on either row, or only on the opponent's
    .any = any row
    .opponent = the opponent's row only
option-leftover = Seeds left when the mover cannot feed
    .about = Who takes the seeds left when the mover cannot feed: the last mover, or the owner of each row
    .last-mover = to the last mover
    .holder = to each row's owner
option-final-four = Last four
    .about = Who takes the last four seeds: the capturer, or a fixed player; a match decides it round by round
    .capturer = to the capturer
    .south = to South
    .north = to North

## Players, sides and the board

side = { $side ->
        [south] South
       *[north] North
    }
side-initial = { $side ->
        [south] S
       *[north] N
    }
player-name = { $kind ->
        [human] person
        [level] computer, level { $level }
        [greedy] computer, greedy
        [random] computer, random
       *[other] computer, { $spec }
    }
a-person = a person
store-label = { $side ->
        [south] South
       *[north] North
    } store
took-label = { $side ->
        [south] South
       *[north] North
    } took
pit-label = Pit { $pit }, { $seeds } { $seeds ->
        [one] seed
       *[other] seeds
    }
pit-playable = Pit { $pit }, { $seeds } { $seeds ->
        [one] seed
       *[other] seeds
    }: play it
# A move's name: a pit's letter, or this.
move-pass = pass

## The game as it stands

no-game = No game open: start a new game, or open a saved one.
game-title = { $game } 2×{ $pits }{ $match ->
        [yes] { " " }— match, round { $round } of { $rounds }
       *[no] {""}
    }{ $hasOptions ->
        [yes] { " " }({ $options })
       *[no] {""}
    } · game { $id }
title-option = { $option }: { $value }
learn-board-title = Learn: { $lesson } — the board is yours to try
player-line = <b>{ $side }</b> — { $player } · captured <b>{ $captured }</b>{ $turn ->
        [yes] { " " }◀ to move
       *[no] {""}
    }
status-over = Game over: { $result }.
status-in-game = { $who } is to move in the game.
status-computer = { $who } ({ $player }) to move.
status-must-pass = { $who } has no sowing move and must pass.
status-to-move = { $who } to move: { $touch ->
        [yes] tap a marked pit.
       *[no] click a marked pit or type its letter.
    }
status-thinking = { $who } ({ $player }) is thinking…
status-plays = { $who } plays { $move }.
status-not-playable = { $pit } cannot be played now: choose a marked pit.
viewing-start = Looking at the start.
viewing-after = Looking at the position after move { $ply } ({ $side } { $move }).
moves-start = start
move-title = Move { $ply }: { $side } { $move }
taken-back = Taken back to move { $ply }: { $who } to move.
round-begins = Round { $round } begins: { $who } starts.

## What a move did

say-lift = { $who } lifts { $seeds } from { $pit }
say-relay = Lap { $lap }: relay — lift { $seeds } from { $pit }
say-skip = Lap { $lap }: skips { $pit }, the pit it was lifted from
say-take = { $who } { $why ->
        [capture] captures { $seeds } from { $pit }
        [last-four] takes the last four: { $seeds } from { $pit }
        [leftover] takes the seeds left in { $pit }: { $seeds }
       *[other] takes { $seeds } from { $pit }
    }
say-extra-turn = { $who } captured: another turn
say-pass = { $who } has no move and passes
list-and = { $rest } and { $last }
list-comma = {", "}
list-semicolon = {"; "}
move-passed = { $who } had no sowing move and passed.
move-sowed = { $who } sowed { $move }: it { $did }{ $hasThen ->
        [yes] { " " }— { $then }
       *[no] {""}
    }.
did-skip = skipped { $pits }
did-relay = relayed { $count ->
        [1] once
        [2] twice
       *[other] { $count } times
    }
did-capture-across = ended in the empty { $end ->
        [none] pit
       *[other] { $end }
    }, capturing the { $seeds } { $seeds ->
        [one] seed
       *[other] seeds
    } across in { $across }
did-casa = made a casa at { $pits }
did-chain = made a chain of casas at { $pits }
did-empty = ended in an empty pit
then-takes = { $who } takes { $seeds }{ $again ->
        [yes] { " " }and moves again
       *[no] {""}
    }
then-again = { $who } moves again
then-last-four = { $who } takes the last four
then-left = { $who } takes the { $seeds } { $seeds ->
        [one] seed
       *[other] seeds
    } left
turn-told = { $who }’s turn: { $count } moves ({ $moves }){ $seeds ->
        [0] {""}
        [one] , capturing { $seeds } seed
       *[other] , capturing { $seeds } seeds
    }. Last: { $last }

## The end of a game

end-short = { $reason ->
        [board-cleared] the board was cleared
        [last-four] the last four went to { $to }
        [cannot-feed] the player to move could not feed
        [repetition] a position recurred
       *[other] the game is over
    }
end-over = the game is over
result = { $winner ->
        [draw] a draw
       *[other] { $who } wins
    }, { $first }–{ $second }{ $hasWhy ->
        [yes] { " " }— { $why }
       *[no] {""}
    }
moves-and-turns = { $moves } { $moves ->
        [one] move
       *[other] moves
    }{ $same ->
        [yes] {""}
       *[no] { " " }in { $turns } { $turns ->
            [one] turn
           *[other] turns
        }
    }
summary-headline = { $winner ->
        [draw] A draw
       *[other] { $who } wins
    }
summary-why = The game ended because { $reason ->
        [last-four] a capture left exactly four seeds, and { $to } took them
        [board-cleared] a capture cleared the board
        [cannot-feed] the player to move could not feed the empty row, so { $leftover ->
            [holder] each seed left went to the owner of its row
           *[other] the seeds left went to the last player who sowed
        }
        [repetition] a position recurred, so the seeds on the board go to nobody
       *[other] it is over
    } (after { $moves }).
summary-new = { $leaves ->
        [yes] New game (leaves the match)
       *[no] New game
    }
summary-review = Replay from the start
next-round = Start round { $round } of { $rounds }
live-end = { $reason ->
        [flag] { $outcome ->
            [draw] time ran out for the side to move, but its opponent could no longer win on captures: drawn
           *[other] { $loser }'s time ran out: { $winner } wins
        }
        [resignation] { $loser } resigned: { $winner } wins
        [agreement] drawn by agreement
        [abandoned] closed: nobody moved for too long
        [expired] closed: nobody took the open seat in time
        [aborted] aborted: a first move did not come in time (not rated)
       *[other] closed
    }{ $match ->
        [yes] ; the match ends with this round
       *[no] {""}
    }

## A match of rounds

match-title = Match: { $rounds } { $rounds ->
        [one] round
       *[other] rounds
    }
match-round = Round
match-starts = Starts
match-last-four = Last four
match-winner = Winner
final-four = { $to ->
        [south] South
        [north] North
       *[other] capturer
    }
round-winner = { $winner ->
        [south] South
        [north] North
       *[other] Draw
    }
match-rounds-won = Rounds won { $south }–{ $north }
match-over = <b>Match over: { $winner ->
        [draw] a draw
       *[other] { $who } wins the match
    }</b> (rounds { $south }–{ $north }, seeds { $southSeeds }–{ $northSeeds }).
match-next-ready = Round { $round } is ready: start it from the summary above.

## The evaluation bar, the hint and the perfect-play values

score-proven = { $margin ->
        [0] a draw with best play
       *[other] { $who } wins by { $margin } with best play
    }
score-estimate = { $margin ->
        [0] about level
       *[other] { $who } is about { $margin } { $margin ->
            [one] seed
           *[other] seeds
        } ahead
    }
eval-words = { $score }.
eval-final-title = final result
eval-final = { $margin ->
        [0] The game ended in a draw.
       *[other] { $who } won by { $margin }.
    }
eval-unclear = Unclear: the computer has not yet looked far enough ahead to judge this position.
eval-unclear-title = { $engine } reached depth { $depth } only (a value needs { $needs })
eval-score-title = { $engine }: { $score }{ $depth ->
        [0] {""}
       *[other] , depth { $depth }
    }
eval-none-title = { $engine } gives no evaluation; the bar shows the captures
eval-none = No evaluation: the bar shows the seeds taken so far.
eval-failed-title = no evaluation ({ $error }); the bar shows the captures
eval-failed = No evaluation now: the bar shows the seeds taken so far.
eval-bar-title = Evaluation, South's point of view: { $title }
eval-bar-label = Evaluation: { $words } ({ $title })
hint-bare = Best: { $move }.
hint-proven = Best: { $move } — { $margin ->
        [0] a draw with best play.
       *[other] you { $ahead ->
            [yes] win
           *[no] lose
        } by { $margin } with best play.
    }
hint-estimate = Best: { $move } — { $margin ->
        [0] the game stays about level.
       *[other] you stay about { $margin } { $margin ->
            [one] seed
           *[other] seeds
        } { $ahead ->
            [yes] ahead
           *[no] behind
        }.
    }
table-value = { $pit }: { $kind ->
        [draw] a draw
        [win] wins by { $margin }
       *[loss] loses by { $margin }
    } with perfect play
tables-not-built = The endgame tables do not hold the layer of { $seeds } seeds on the board (only those play from the start reaches are built by default): add it with sow tables build --layer { $seeds }

## Saved games, records and keys

saved-title = Saved games
saved-how = The games of this browser. Anyone with a game’s link may watch it; only this browser may play on in it or delete it.
saved-game = Game
saved-south = South
saved-north = North
saved-moves = Moves
saved-result = Result
saved-when = Last played
saved-outcome = { $winner ->
        [draw] draw
        [south] South won
       *[north] North won
    }
saved-closed = closed, no result
saved-in-play = in play
saved-name = { $game } 2×{ $pits }{ $live ->
        [yes] , with a friend
       *[no] {""}
    }{ $inMatch ->
        [yes] , match { $match } round { $round }
       *[no] {""}
    }
saved-open = { $over ->
        [yes] Replay
       *[no] Resume
    }
saved-delete = Delete
    .title = Delete this game
loading = Loading…
no-games = No games yet.
confirm-delete = Delete game { $id }? This cannot be undone.
not-deleted = Not deleted: { $error }
record-loaded = Record loaded as game { $id }: step through it in the move list, or play on.
record-unread = The record could not be read: { $error }
key-title = Your games on another device
key-how = This browser’s player key opens its games anywhere. Keep it to yourself: whoever has it may move in your games and delete them.
key-mine = Your key
key-other-label = A key from another device
key-other =
    .placeholder = 32 letters and digits
key-use = Use it here
key-used = This browser now uses that key: its games are listed above.
key-bad = A player key is 32 letters a–f and digits.
copy = Copy
copied = Copied.
close = Close
game-not-opened = Game { $id } could not be opened: { $error }
game-gone = Game { $id } could not be opened: { $error }. Start a new game instead?
games-not-loaded = The games could not be loaded: { $error }

## Learn

learn-title = Learn { $game }
learn-event = Learn: { $lesson }
lesson-press-watch = Press “Watch the example” to see the rule played, then try it yourself.
lesson-watching = Watch…
lesson-watched = That was the example. Press “Try it yourself” to play it from the same position.
lesson-played = You played { $move }. { $last ->
        [yes] That is every rule of this game: start a game!
       *[no] On to the next rule?
    }
lesson-well-done = Well done. { $last ->
        [yes] That is every rule of this game: start a game!
       *[no] On to the next rule?
    }
lesson-not-that = You played { $move }, not { $expected }. Press “Try it yourself” to start again.
lesson-before-example = You played { $move } before watching the example: { $right ->
        [yes] that is the move this lesson shows.
       *[no] this lesson shows another move.
    } Press “Watch the example” to see the rule played, or “Try it yourself” to start again.

# Each lesson: its title, its words, and what the reader is asked to try.
lesson-h2-sowing-and-relays =
    .title = Sowing and relays
    .words = On your turn, pick up every seed of one of your pits and drop them one by one into the pits that follow, counter-clockwise: along your row to the right, then back along your opponent’s row. Then look at the pit where the last seed fell. If it was empty (it now holds one seed), your move ends. If it now holds more — but not exactly four — pick them all up and sow on from there: a relay.
    .ask = Now you: sow C. Its two seeds go to D and E; E then holds three, so they are relayed on, and the last falls into the empty b.
lesson-h2-a-casa =
    .title = A casa
    .words = If the last seed of a lap makes exactly four, that pit is a casa: you take its four seeds, and you move again, choosing any of your pits. Seeds that pass through a four during a lap take nothing: only where the last seed falls counts.
    .ask = Now you: sow C. Its last seed makes F a four — a casa.
lesson-h2-a-chain-of-casas =
    .title = A chain of casas
    .words = After taking a casa, look at the pit just before it, going backwards round the board (across rows too). If it holds exactly four, take it as well, and the one before it, and so on, until a pit that does not hold four. (With the option “Casas: the opponent’s row only”, only fours in your opponent’s row count.)
    .ask = Now you: sow D. a becomes a casa, and so do F and E behind it: twelve seeds, and another move.
lesson-h2-casas-on-the-opponents-row-only =
    .title = Casas on the opponent’s row only
    .words = With the new-game option “Casas: the opponent’s row only”, a four in your own row is never a casa: your last seed making four there is a relay like any other pit, and a chain stops at your own row. This is the position of the last lesson, played with that option.
    .ask = Now you: sow D. a, in North’s row, is a casa; F and E behind it hold four but are in your own row, so the chain stops: four seeds, and another move.
lesson-h2-the-last-four-and-the-end =
    .title = The last four, and the end
    .words = When a capture leaves exactly four seeds on the board, they go to the player who captured, and the game ends; a capture that clears the board ends it too. The player who took more seeds wins; equal is a draw.
    .ask = Now you: sow B. C becomes a casa, and the four seeds left (two in a, two in f) are yours as well.
lesson-h2-passing =
    .title = Passing
    .words = A player with no pit that can be sown — every pit of their row empty — passes, and only then; the other player moves again.
    .ask = Now you: South’s row is empty, so press Pass (or type p).
lesson-h2-an-endless-sowing-is-refused =
    .title = An endless sowing is refused
    .words = Relays can go round the board for ever. A move whose sowing has not ended after { 65536 } laps is not allowed, just like sowing an empty pit; a player with no allowed move passes. Such moves are rare in play, but they happen.
    .ask = E holds three seeds but is not ringed: sowing it would go round for ever (every 60 laps the same). Click it to see; any ringed pit may be played.
lesson-h2-a-position-comes-back =
    .title = A position comes back
    .words = If a position comes back in a game — the same seeds in every pit and the same player to move — the game ends at once. The seeds still on the board go to nobody, and the seeds taken so far decide. It can only happen between two captures. (In Hoyito III the position also holds who gets the last four; in Ayoayo, who made the last sowing move.) Here four seeds have gone round the board for five moves without a capture.
    .ask = Now you, as North: sow b. Its relays bring the board back to the start of this lesson, South to move: the game ends, a 20–20 draw.
lesson-h3-as-hoyito-ii =
    .title = As Hoyito II
    .words = Hoyito III is played like Hoyito II — sowing, relays, a casa when the last seed makes four, another move after a capture, passing, no endless sowing — with two differences, shown next. Learn Hoyito II first if you have not.
    .ask = Now you: sow C. Its last seed makes F a four: a casa, and another move.
lesson-h3-one-casa-at-a-time =
    .title = One casa at a time
    .words = A capture takes only the pit where the last seed fell: the fours behind it stay on the board, where either player may make them casas later.
    .ask = Now you: sow D. a becomes a casa; E and F hold four too, but stay (in Hoyito II all three would go).
lesson-h3-the-last-four =
    .title = The last four
    .words = In a single game, whoever takes the four before the last also takes the last four, and the game ends. In a match of rounds, from round 3 on the last four go to the winner of the round before instead (to the capturer after a draw), and the starter alternates.
    .ask = Now you: sow B. C becomes a casa, and the last four seeds are yours.
lesson-h3-the-last-four-in-a-match =
    .title = The last four in a match
    .words = In a match, from round 3 on, the last four go to the winner of the round before — here North — whoever made the capture before them. (After a drawn round they go to the capturer, as in a single game.) Here is the position of the last lesson, as if in round 3 of a match after North won round 2.
    .ask = Now you: sow B. C becomes a casa, but the last four go to North, last round’s winner: a 4–4 draw.
lesson-ayo-sowing-and-relays =
    .title = Sowing and relays
    .words = Each player has a store beside their row (never sown into). On your turn, pick up every seed of one of your pits and sow them one by one counter-clockwise. If the last seed falls into a pit that already held seeds, pick them all up and sow on: a relay. When the last seed falls into an empty pit, the move ends.
    .ask = Now you: sow C. E then holds three, so they are relayed on, and the last seed falls into the empty b.
lesson-ayo-capture =
    .title = Capture
    .words = If your move ends in an empty pit of your own row and the pit across holds seeds, those seeds and your last seed go to your store. Only the end of the move captures.
    .ask = Now you: sow B. Its seed falls into the empty C, and the three seeds across in d are yours.
lesson-ayo-skipping-the-pit-you-lifted =
    .title = Skipping the pit you lifted
    .words = A lap never drops a seed into the pit it was lifted from: with twelve seeds or more, the sowing goes round and passes it by. (Hoyito does not skip it.)
    .ask = Now you: sow A. Its twelfth seed passes A by and falls into B; the relays go round and end with a capture.
lesson-ayo-feeding =
    .title = Feeding
    .words = If your opponent’s row is empty, you must play a move that gives them seeds. Moves that do not are not allowed.
    .ask = Now you: North’s row is empty. A would not reach it, so only F is ringed: sow F.
lesson-ayo-passing =
    .title = Passing
    .words = A player whose row is empty — or whose every move would sow for ever — passes. The other player then moves, and must feed the empty row if they can.
    .ask = Now you: South’s row is empty, so press Pass (or type p). North must then feed you: only f is ringed, since c would stay in North’s row.
lesson-ayo-the-end =
    .title = The end
    .words = When the player to move cannot feed an empty row, the game ends, and the seeds left on the board go to the player who made the last sowing move (with the option “to each row’s owner”, each seed to the owner of its row). A capture that clears the board also ends it. More seeds in your store wins.
    .ask = Now you: sow F. South’s row is then empty and North cannot feed it, so the game ends and the seeds left are yours.
lesson-ayo-the-seeds-left-to-each-rows-owner =
    .title = The seeds left: to each row’s owner
    .words = The new-game option “Seeds left when the mover cannot feed: to each row’s owner” changes who takes the seeds left when a player cannot feed: each seed goes to the player whose row it lies in, not to the last player who sowed. This is the same position as the last lesson, played with that option.
    .ask = Now you: sow F. North cannot feed you, and the two seeds left lie in North’s row: North takes them and wins, 25–23.

## The server's refusals, by their code (docs/api.md, "Errors"). `detail` is the server's
## own English words.

error-unreachable = The server cannot be reached: is sow serve still running? Try again once it is.
error-unknown-game = There is no such game: it may have been deleted.
error-unknown-match = There is no such match.
error-no-such-move = The game has no such move.
error-illegal-move = That move is not legal now; the legal moves are { $legal }.
error-stale-ply = The game has moved on since this page last saw it: reload it.
error-nothing-to-undo = There is no move to undo.
error-nothing-to-redo = There is no move to redo.
error-game-over = The game is over.
error-round-not-over = The current round is not over.
error-match-over = The match is over.
error-round-closed = A later round of this match has started: this round can no longer change.
error-changed-meanwhile = The game changed while the computer was thinking: reload it.
error-round-taken = That round has already been started.
error-in-match = A round of a match cannot be deleted alone: the score table needs it.
error-unknown-player = { $detail }
error-engine-busy = The computer is busy with other requests: try again.
error-engine-no-answer = The computer did not answer in time.
error-write-conflict = Another request changed this game at the same moment: reload it.
error-store-unavailable = The server cannot reach its database just now: nothing was lost. Try again in a few seconds.
error-store-full = The server has run out of disk space: your move was not saved. Try again later.
error-not-live = This game is not played between two devices.
error-bad-record = { $detail }
error-bad-request = The server could not read the request.
error-forbidden = { $detail }
error-not-found = Not found.
error-conflict = { $detail }
error-too-large = The request is too large.
error-unsupported-type = The server does not take that kind of request.
error-unprocessable = { $detail }
error-limited = Too many requests: wait a little and try again.
error-server = The server failed: { $detail }
error-signed-out = You need to sign in, or the name or the password is not right.
error-unknown-account = No account has that name.
error-unknown-seek = That search for an opponent has ended.
error-wrong-recovery-code = That name and recovery code do not match, or the code has already been used.
error-unknown-challenge = There is no such challenge.
error-unknown-tournament = There is no such tournament.
error-challenge-gone = That challenge is no longer open: it was answered or cancelled, or it expired.
error-challenge-refused = That player does not take challenges from you.
error-name-taken = That name is taken: choose another.
error-other = { $detail }
error-status = { $status } { $text }

## Play a friend (live.js, lobby.js)

live-against = Play against
live-against-here = the computer, or someone at this screen
live-against-friend = a friend on another device
live-friend = Play a friend on another device
live-seat-choice = Your seat
live-seat-south = South (moves first)
live-seat-north = North
live-clock = Clock
live-clock-none = unlimited
live-clock-days = { $days } d { $hours } h { $minutes } min
live-clock-per-move = { $days ->
        [one] 1 day a move
       *[other] { $days } days a move
    }
live-clock-choice = { $seconds ->
        [0] { $minutes } min
       *[other] { $minutes } + { $seconds }
    }
live-name = Your name (optional)
live-lobby-post = List it in the lobby for anyone to accept
live-invite = Invite a friend
live-panel =
    .aria-label = Live game
seat-name = { $name } ({ $side })
live-player = { $you ->
        [yes] you
       *[no] a friend
    }
live-seat = { $named ->
        [yes] { $name }
       *[no] { $taken ->
            [yes] a friend
           *[no] waiting for an opponent…
        }
    }{ $you ->
        [yes] { " " }(you)
       *[no] {""}
    }
live-result = { $outcome ->
        [draw] a draw
        [none] closed with no result
       *[other] { $who } wins
    }{ $score ->
        [yes] { $outcome ->
            [none] {""}
           *[other] , { $first }–{ $second }
        }
       *[no] {""}
    }: { $why }
live-not-opened = Live game { $id } could not be opened: { $error }
live-socket-error = { $detail }
live-round-over = Round over: { $result }. The next round starts in a moment…
live-waiting-seat = Waiting for an opponent to take the other seat.
live-to-move = { $who } to move{ $seated ->
        [yes] { " " }— waiting for their move.
       *[no] .
    }
live-your-move = Your move: { $touch ->
        [yes] tap a marked pit.
       *[no] click a marked pit or type its letter.
    }
live-first-move-due = Make your first move within { $seconds } s, or the game is aborted.
live-credited = The server was away: { $seconds } s were given back to the clock.
live-confirm-resign = { $match ->
        [yes] Resign the match? (It ends with this round.)
       *[no] Resign this game?
    }
live-resign = Resign
live-draw = { $state ->
        [theirs] Accept the draw
        [mine] Draw offered
       *[none] Offer a draw
    }
live-confirm-draw = Accept the draw? The game ends now, as a draw.
live-takeback = { $state ->
        [theirs] Accept the takeback
        [mine] Takeback asked
       *[none] Ask to take back
    }
    .title = Take back the last move, if your opponent agrees
live-confirm-takeback = Accept the takeback? Your opponent’s last move is taken back.
live-rematch = { $state ->
        [theirs] Accept the rematch
        [mine] Rematch asked
       *[none] Rematch (colours swapped)
    }
live-decline = Decline
live-go-rematch = { $seated ->
        [yes] Play the rematch
       *[no] Watch the rematch
    }
live-offer = { $mine ->
        [yes] Your opponent
       *[no] { $who }
    } { $kind ->
        [draw] offers a draw
        [takeback] asks to take back the last move
       *[rematch] asks for a rematch
    }.
live-match = Match, round { $round } of { $rounds }: rounds won { $south }–{ $north }, seeds { $southSeeds }–{ $northSeeds }{ $winner ->
        [none] {""}
        [draw] { " " }— a draw
       *[other] { " " }— { $who } wins the match
    }.
live-watchers = { $count } watching · { $connected ->
        [yes] live
       *[no] reconnecting…
    }
live-link-invite = Invitation link (send it to your friend):
live-link-mine = Your seat (to come back on any device; keep it to yourself):
live-link-watch = Watch link:
live-link-copied = { $label } copied.
lobby-title = Lobby
lobby-how = Open challenges: accept one to play its poster.
lobby-empty = No open challenge now. Post one from New game → Play a friend.
lobby-challenge = { $game } 2×{ $pits }, { $clock ->
        [yes] { $minutes } + { $seconds }
        [days] { $days } d a move
       *[no] no clock
    } — { $named ->
        [yes] { $name }
       *[no] someone
    } (you play { $open })
lobby-open = Open
lobby-accept = Accept
lobby-not-accepted = That challenge could not be accepted: { $error }

## Accounts and ratings (account.js)
account-sign-in = Sign in
account-button = { $name } ▾
account-title = Account
account-leaders = Leaderboards
account-sign-up-title = New account
account-name = Name
account-password = Password
account-new-password = New password
account-create = Create the account
account-why = An account keeps your games and ratings on any device. Without one you play as now; the games of this browser move into the account when you sign up or in.
account-name-rule = 2–24 letters, digits, _ or -
account-password-rule = at least 8 characters
account-signed-in-as = Signed in as { $name }.
account-profile = Your profile
account-sign-out = Sign out
account-sign-out-all = Sign out everywhere
account-sign-out-all-title = End the sessions of every device signed in to this account
account-change-password = Change the password
account-password-changed = { $count ->
        [one] Password changed; 1 other session signed out.
       *[other] Password changed; { $count } other sessions signed out.
    }
account-signed-out-all = { $count ->
        [one] Signed out on 1 device.
       *[other] Signed out on { $count } devices.
    }
account-moved = { $count ->
        [one] 1 game of this browser moved into your account.
       *[other] { $count } games of this browser moved into your account.
    }
account-welcome = Welcome, { $name }.
account-close = Close
account-ratings = Ratings
account-results = Results by game
account-games = Rated games
account-graph = Rating after each rated game
account-no-games = No rated game yet.
account-about = About
account-save = Save
account-saved = Saved.
account-col-game = Game
account-col-speed = Speed
account-col-rating = Rating
account-col-rd = RD
account-col-played = Games
account-col-wins = Won
account-col-losses = Lost
account-col-draws = Drawn
account-col-rank = #
account-col-player = Player
account-col-opponent = Opponent
account-col-result = Result
account-col-change = Rating
account-review-game = Open this game with its review
account-result = { $result ->
        [win] won
        [loss] lost
       *[draw] drawn
    }
account-speed = { $speed ->
        [bullet] Bullet
        [blitz] Blitz
        [rapid] Rapid
        [classical] Classical
       *[unlimited] Unlimited
    }
account-empty-board = Nobody is rated here yet.
account-rated = Rated game (both players signed in)
account-rated-note = rated
account-range = Challengers rated
account-from = from
account-to = to
account-claimed = Your account holds this seat: the game is rated once both players have signed in.
account-claim-failed = Your account could not take this seat: { $detail }
account-codes-title = Recovery codes
account-codes-note = Write these codes down, or print them, and keep them somewhere safe: they are shown only now. If you forget your password, one of them lets you set a new one (Sign in, then “Forgot the password?”). Each code works once.
account-codes-done = I have written them down
account-codes-renewed = New codes made: the old ones no longer work.
account-forgot = Forgot the password?
account-forgot-note = Your name, one of the recovery codes you wrote down when you made the account, and a new password. Every other session of the account ends.
account-code = Recovery code
account-recover = Set the new password
account-recovered = Welcome back, { $name }: your new password is set, and the account’s other sessions have ended. Cross off the code you used: it works only once.
account-renew-codes = Make new codes
account-renew-note = New codes end the old ones. Your password, to be sure it is you:
## The review after the game (analysis.js; docs/web.md, "Analysis")

analysis-open = Review the game
analysis-open-saved = Review
analysis-title = Analysis
analysis-close = Close the review
analysis-asking = Asking the server for the analysis…
analysis-queued = Waiting for the server to start the analysis…
analysis-running = Analysing: position { $done } of { $total }.
analysis-failed = The analysis could not be had: { $message }
analysis-no-moves = There are no moves to analyse yet.
analysis-outdated = The game has changed since: analysing it again…
analysis-graph-how = The value of the game after each turn: above the line South is ahead, below it North is. Click a point to see that position.
analysis-graph =
    .aria-label = Evaluation graph
analysis-point = Turn { $turn }, { $name }: { $value }
analysis-start-point = The start: { $value }
analysis-value-proven = { $who ->
        [level] a draw with perfect play
       *[other] { $name } wins by { $seeds } { $seeds ->
            [one] seed
           *[other] seeds
        } with perfect play
    }
analysis-value-estimate = { $who ->
        [level] about level
       *[other] { $name } ahead by about { $seeds } { $seeds ->
            [one] seed
           *[other] seeds
        }
    }
analysis-class = { $class ->
        [inaccuracy] inaccuracy
        [mistake] mistake
        [blunder] blunder
       *[best] best
    }
analysis-forced = the only move
analysis-lost-proven = gave up { $loss } { $loss ->
        [one] seed
       *[other] seeds
    } against perfect play (proven)
analysis-lost-estimate = gave up about { $loss } { $loss ->
        [one] seed
       *[other] seeds
    } (estimated, depth { $depth })
analysis-kept = { $proven ->
        [yes] proven
       *[no] estimated, depth { $depth }
    }
analysis-better = better: { $move }
analysis-better-on-board = On the board: { $played } was played (red ring); { $best } was better (green ring).
analysis-turn = Turn { $turn }, { $name }
analysis-before-after = Before: { $before }. After: { $after }.
analysis-side-player = { $side } ({ $player })
analysis-nav = Step through the review
analysis-nav-how = Step through the game a turn at a time, or jump to the next mistake.
analysis-slider = Turn of the game
analysis-prev = ◀ Back
analysis-next = On ▶
analysis-next-mistake = Next mistake
analysis-no-mistakes = Neither player made a mistake or a blunder.
analysis-where = Turn { $turn } of { $turns }, { $name }: { $moves }
analysis-accuracy = accuracy
analysis-accuracy-value = { NUMBER($accuracy, minimumFractionDigits: 1, maximumFractionDigits: 1) } %
analysis-no-accuracy = no choice to make
analysis-counts = { $blunders } { $blunders ->
        [one] blunder
       *[other] blunders
    }, { $mistakes } { $mistakes ->
        [one] mistake
       *[other] mistakes
    }, { $inaccuracies } { $inaccuracies ->
        [one] inaccuracy
       *[other] inaccuracies
    }
analysis-average-loss = { NUMBER($loss, maximumFractionDigits: 2) } seeds lost a move on average
analysis-nodes = { $nodes } nodes a position
analysis-engine = Analysed by the { $engine } ({ $limits }) above the endgame tables { $tables ->
        [0] (this server has none for this game)
       *[other] (exact up to { $tables } seeds on the board)
    }.

## Quick pairing (pairing.js)
pair-title = Quick pairing
pair-how = Press a clock to play the first player who wants the same game and clock.
pair-game = Game
pair-custom = Custom
pair-custom-minutes = Minutes
pair-custom-increment = Seconds added a move
pair-custom-go = Seek
pair-custom-bad = A custom clock is 1 to 180 minutes, and 0 to 60 seconds added a move.
pair-rated = Rated
pair-range = Opponent's rating
pair-range-any = any
pair-range-within = within { $points } of mine
pair-seeking = Looking for an opponent: { $game }, { $clock }…
pair-cancel = Cancel
pair-cancelled = Search cancelled.
pair-failed = The search failed: { $error }

## Quick phrases in a live game (phrases.js)
phrase-hello = Hello!
phrase-good-luck = Good luck!
phrase-good-game = Good game!
phrase-thanks = Thanks!
phrase-well-played = Well played!
phrase-sorry = Sorry!
phrase-said = { $who }: { $phrase }
phrases-mute = Mute the opponent's phrases

## Your turn (turns.js)
turns-title = Your turn
turns-button = Your turn ({ $count })
turns-game = { $game }{ $named ->
        [yes] { " " }against { $opponent }
       *[no] {""}
    }

## Challenges by name (challenges.js)
challenges-panel =
    .aria-label = Challenges
challenge-incoming = { $name } challenges you: { $game }, { $clock }, { $rated ->
        [yes] rated
       *[no] casual
    }; you would play { $side }.
challenge-outgoing = Your challenge to { $name }: { $game }, { $clock }, { $rated ->
        [yes] rated
       *[no] casual
    }; you play { $side }. Waiting for an answer.
challenge-left = { $time } left
challenge-accept = Accept
challenge-decline = Decline
challenge-cancel = Cancel
challenge-ended = { $state ->
        [declined] { $name } declined your challenge.
        [cancelled] Your challenge to { $name } was cancelled.
        [accepted] { $name } accepted your challenge.
       *[expired] Your challenge to { $name } expired unanswered.
    }
challenge-not-done = That could not be done: { $error }
challenge-button = Challenge
challenge-title = Challenge a player
challenge-name = Player's name
challenge-game = Game
challenge-seat-random = Drawn at random
challenge-rated = Rated (both players' ratings move)
challenge-send = Send the challenge
challenge-by-name = Challenge a player by name
refusals-title = Challenges
refusals-everyone = Refuse challenges from everyone
refusals-names = Refuse challenges from these players:
refusals-none = nobody
refusals-name = Player's name
refusals-add = Refuse their challenges
refusals-remove = Remove
refusals-remove-for = Stop refusing challenges from { $name }
refusals-saved = Saved.

## Tournaments (tournaments.js: the list and the form; tournament.js: one tournament)
nav-tournaments = Tournaments
tournaments-section =
    .aria-label = Tournaments
tournaments-title = Tournaments
tournaments-how = An arena pairs you again as soon as your game ends, until its time is up; a Swiss plays a set number of rounds, pairing players with equal scores. Once you join, your games open here by themselves: make your first move within 30 seconds.
tournaments-make = Make a tournament
tournaments-sign-in = Sign in to make or join a tournament.
tournament-sign-in = Sign in
tournaments-upcoming = Upcoming
tournaments-running = Under way
tournaments-finished = Finished
tournaments-none = None.
tournament-form-title = A new tournament
tournament-form-name = Name
tournament-form-game = Game
tournament-form-clock = Clock
tournament-form-kind = Kind
tournament-kind-arena = Arena: new games as soon as yours ends, for a set time
tournament-kind-swiss = Swiss: a set number of rounds
tournament-form-minutes = Length in minutes
tournament-form-rounds = Rounds
tournament-form-starts = Starts
tournament-form-in = in
tournament-form-minutes-later = minutes
tournament-form-at = at
tournament-form-rated = Rated (the players' ratings move)
tournament-form-min-rating = Least rating to join
tournament-form-none =
    .placeholder = none
tournament-form-make = Make the tournament
tournament-form-bad-length = An arena lasts 1 to 720 minutes; a Swiss has 1 to 30 rounds.
tournament-form-bad-start = Choose a start from now to 60 days ahead.
tournament-form-bad-rating = The least rating is a whole number from 0 to 4000, or nothing.
tournament-days = { $days } d { $hours } h
tournament-hours = { $hours } h { $minutes } min
tournament-kind = { $kind ->
        [arena] Arena, { $minutes } min
       *[swiss] Swiss, { $rounds ->
            [one] 1 round
           *[other] { $rounds } rounds
        }
    }
tournament-rated = { $rated ->
        [yes] rated
       *[no] casual
    }
tournament-players = { $count ->
        [one] 1 player
       *[other] { $count } players
    }
tournament-min-rating = rating { $rating } or more
tournament-by = by { $name }
tournament-by-site = by the site
tournament-starts-in = Starts in { $time }
tournament-ends-in = Ends in { $time }
tournament-ending = Time is up: the last games are being played out.
tournament-finished-at = Finished { $time }.
tournament-round-of = Round { $round } of { $rounds }.
tournament-next-round = Next round in { $time }.
tournament-connected = { $connected ->
        [yes] Live
       *[no] Reconnecting…
    }
tournament-back = ← All tournaments
tournament-loading = Loading the tournament…
tournament-you = { $status ->
        [active] { $over ->
            [yes] You played in it.
           *[no] You are in: your games open here by themselves.
        }
        [paused] You are paused: you are not paired until you come back.
        [withdrawn] You withdrew: you are not paired again.
       *[none] { $over ->
            [yes] You did not play in it.
           *[no] You have not joined.
        }
    }
tournament-join = { $back ->
        [yes] Come back
       *[no] Join
    }
tournament-leave = { $kind ->
        [arena] Pause
       *[swiss] Withdraw
    }
tournament-confirm-withdraw = Withdraw from this tournament? You will not be paired again.
tournament-your-game = Your game: against { $opponent }, you play { $side }.
tournament-open-game = Open your game
tournament-berserk = Berserk
    .title = Give up half your time before your first move: a win of 7 moves or more brings a point more.
tournament-berserked = Berserk: your clock lost half its time.
tournament-not-done = That could not be done: { $error }
tournament-standings = Standings
tournament-no-players = Nobody has joined yet.
tournament-col = { $col ->
        [rank] #
        [player] Player
        [points] Points
        [buchholz] Buch.
        [sb] S-B
        [sheet] Sheet
        [performance] Perf.
       *[games] Games
    }
tournament-col-about = { $col ->
        [buchholz] Buchholz: the points of every opponent played
        [sb] Sonneborn–Berger: the points of every opponent beaten, and half of those drawn with
       *[performance] Performance: the mean of the opponents' ratings, 500 more for a win and 500 less for a loss
    }
tournament-entrant = { $status ->
        [paused] (paused)
       *[withdrawn] (withdrew)
    }
tournament-on-fire = On fire: the next win counts double
tournament-result = { $result ->
        [south] 1–0
        [north] 0–1
        [draw] ½–½
        [bye] bye
       *[none] playing
    }
tournament-game-link = { $over ->
        [yes] Replay
       *[no] Watch
    }
tournament-bye = { $name }: bye
tournament-pairings = Pairings
tournament-round = Round { $round }
tournament-games = Games
tournament-no-games = No games yet.
tournament-player-games = The games of { $name }
tournament-player-game = { $round ->
        [0] {""}
       *[other] Round { $round }: {""}
    }{ $outcome ->
        [bye] a bye
       *[other] against { $opponent }, { $side }: { $outcome ->
            [win] won
            [loss] lost
            [draw] drawn
           *[playing] playing
        }
    }
tournament-bar-back = { $name }: back to the tournament
tournament-bar-waiting = Your next game has started.
tournament-bar-next = Your next game opens here once it is paired.

## The school (school.js, explorer.js, practice.js): the opening explorer and endgame practice.
nav-school = School
school-title = School
school-explorer = Opening explorer
school-practice = Endgame practice
school-close = Close
school-explore-here = Explore this position
school-practise-game = Practise this game's endgame
explorer-game = Game
explorer-back = One move back
explorer-restart = Start
explorer-at-start = At the start.
explorer-line = Line: { $line }
explorer-value = Value of the position for the player to move: { $value } (proven)
explorer-move = Move
explorer-value-head = Value for the mover
explorer-played-head = Played here
explorer-proven = { $value } proven ({ $source })
explorer-source-end = the game ends
explorer-source-tables = endgame tables
explorer-source-certificate = the solve's certificate
explorer-source-solve = solved on this server
explorer-bounded = between { $lower } and { $upper } (proven bounds)
explorer-estimated = { $value } estimated (depth { $depth })
explorer-not-played = not played yet
explorer-played = { $games ->
        [one] one game
       *[other] { $games } games
    }: South won { $south }, North { $north }, drawn { $draws }
explorer-solve = Solve in the background
explorer-solving = Solving ({ $status ->
        [waiting] waiting
       *[running] running
    }): { $nodes } positions searched, at most { $budget } s
practice-difficulty = Difficulty
practice-easy = Easy
practice-medium = Medium
practice-hard = Hard
practice-new = New position
practice-from-game = From the game on the board
practice-about = You play { $side }: with perfect play you win by { $final } ({ $value } from here, { $seeds } seeds on the board; { $wrong ->
        [one] one move gives seeds away
       *[other] { $wrong } moves give seeds away
    }). Win against perfect defence.
practice-your-move = Your move. Seeds given up so far: { $lost }.
practice-defending = Perfect defence is playing…
practice-told = { $move }: value { $before } before, { $after } after: { $lost ->
        [0] nothing given up
        [one] one seed given up
       *[other] { $lost } seeds given up
    }
practice-converted = Converted: you won by { $margin }, giving up { $lost ->
        [0] nothing
        [one] one seed
       *[other] { $lost } seeds
    } on the way.
practice-missed = Not converted: the game ended { $margin } for you, { $lost ->
        [one] one seed
       *[other] { $lost } seeds
    } given up. Try again.

## Puzzles (puzzles.js)
nav-puzzles = Puzzles
puzzles-title = Puzzles
puzzles-game = Game
puzzles-game-hoyito-ii = Hoyito II
puzzles-game-hoyito-iii = Hoyito III
puzzles-game-ayoayo = Ayoayo
puzzles-rated = A puzzle at my rating
puzzles-daily = Daily puzzle
puzzles-streak = Streak
puzzles-next = Next puzzle
puzzles-themes = Themes
theme-relay-chain = Relay chain
theme-casa-chain = Chain of casas
theme-extra-turn = Capture for another turn
theme-feeding = Feeding
theme-last-four = The last four
theme-forced-pass = A forced pass
theme-sweep = The sweep at the end
puzzles-find-south = South to move: find the only move that keeps the proven value
puzzles-find-north = North to move: find the only move that keeps the proven value
puzzles-daily-of = Puzzle of { $day }
puzzles-puzzle-rating = Puzzle rated { $rating }
puzzles-your-rating = Your puzzle rating: { $rating } (±{ $deviation })
puzzles-streak-count = Streak: { $count }
puzzles-your-move = Your move.
puzzles-right = Right!
puzzles-wrong = Wrong: { $move } gives seeds away. The move was { $right }.
puzzles-solved = Solved!
puzzles-missed = Missed: the right move was { $right }.
puzzles-streak-solved = Solved! Streak: { $count }. The next one is harder.
puzzles-streak-over = The streak ends at { $count } (best: { $best }).
puzzles-none = No puzzle of this kind yet: the server mines them once it has endgame tables.
puzzles-close = Close

# The dialogs' small board (smallboard.js: puzzles, explorer, practice).
small-board-captured = Captured: South { $south }, North { $north }
small-board-over = The game is over.
small-board-to-move = { $side ->
        [south] South
       *[north] North
    } to move
small-board-pass = Pass
