"""The Belgian "Mort Subite" challenge (docs/rules.md §6, source [004]: the FBS regulation).

A round is played after a host tournament by the players qualified from its ranking after
the penultimate game (art. 4); it is an elimination game played move by move (art. 7–11);
the participants score by their final place (art. 9, 12); the final round scores double
(art. 15); the season classification adds each player's x − 1 best regular rounds and the
final (art. 14–15); trophies and cups reward categories and series (art. 16).

Pure transforms: Polars frames in, frames out; every number the rules mark as a parameter
comes in through `MortSubiteParams` (loaded from `data/reference/mort_subite.yaml` by
`pipelines.reference.mort_subite`). The inputs are the two exports, with their columns:

- *mort subite players*, one row per player of the host tournament:
  `round_id, host_tournament_id, date, final, player_id, host_rank, series, present`;
- *mort subite moves*, one row per participant still in the game per move:
  `round_id, move, top, player_id, score, warning` and, optionally, `penalty`.

The functions, in the order a season is computed (`challenge` runs them all):
`qualify` (regular rounds) → `round_results` → `final_host_ranking` + `qualify` (the final)
→ `round_results` → `season_standings`; `validate_challenge` returns the errors of the
exports as rows (`export, round_id, row_index, column, message`, in French).
`with_host_series` fills a regular round's empty series from the host tournament's
results; `move_survivors` plays one move (the simulator's arbiter uses it too). The
tables of `challenge` carry each round's `season` (of its date); `qualify` and
`round_results` give a round's rows without it.

Decisions taken here, where docs/rules.md §6 and [004] are silent:

- **Series**: a row's series is read as a series level (`4B` → `4`, `Série 2` → `2`);
  super-série (`SS`) counts as series 1 for "each series", the trophy categories and the
  cups; a missing series counts as `7` (the last default of docs/rules.md §3). The pipeline first
  takes a regular round's missing series from the player's row in the host tournament's
  results (`with_host_series`), the series they held that day; not from the rest of the
  §3 chain (last season's classification, rating lists), which the ingest — checking the
  qualification file by file — cannot know. A player's **season series** is
  the one on their latest row with a series among the season's rounds (by date, regular
  rounds before the final, then round id).
- **Qualification cut**: the last qualifying place of a group (10 overall, 3 within a
  series) is the host rank of its 10th (3rd) player in host-rank order; every player at or
  above it qualifies, so ties at it are included whatever the numbering of ties. A player
  in both groups appears once, with reason `both`.
- **The final's host ranking** (art. 14) is the challenge classification of the season's
  regular rounds, counting each player's x − 1 best, with the tie-breaks of the season
  classification except the final's. Its place is the final's `host_rank`, for the
  qualification and for ordering players out on the same move; the `host_rank` written on
  the final's export rows is not read (they give `present`). A player listed in the final's
  rows but without a regular result is not a candidate.
- **Participants** of a round are its qualified players marked `present` = 1. A round
  needs two participants and at least one move.
- **Counted score** of a move (FISF §5.9: « toute pénalité est appliquée sur le coup
  concerné »): the score played, minus 5 for each of the move's warnings (`warning`: 0, 1
  or 2, a disciplinary warning coming on top of another, FISF §5.8) that is the player's
  6th or a later one *in the round* (warnings are counted per round), minus the arbiter's
  `penalty` (FISF §5.6: 5 for a wrong position; absent or empty = 0); never below 0
  (FISF §5.6: « pas de score négatif »). The **reference** is the top when a
  participant's counted score equals it, else the best counted score; a player whose
  counted score is below the reference is out. So a penalised top does not count as
  found, and a penalty can eliminate (art. 11).
- **Solo** (art. 11, FISF §3.5: « Les scores sont comparés avant application éventuelle
  d'une pénalité »): a penalised player's score played (before any penalty) is strictly
  above every other participant's score played; the player is penalised by warnings, by
  the arbiter or both, whatever the points taken off. The export's `score` is the points
  of the move without any solo bonus (the challenge awards none), so every such solo is
  one "non attributif d'une prime de 10 points". The second-best score is the best score
  played by the others, before any penalty. More than the margin (5) above it: the
  penalised player alone continues, every other player is out and the round is won.
  Exactly the margin: the reference is the second-best score; the penalised player and
  every player whose counted score reaches it continue. Less: the general rule.
- **End of a round**: after its last move, or as soon as one player is left (a move row
  after that is an error). Players still in at the end share place 1 and each take the
  maximum (art. 8); the players out before them take the places after them, the latest out
  first. `score_on_move` is the counted score of the move a player went out on.
- **Points** by place: place p scores the p-th value of the art. 12 table, so fewer than
  25 participants count down from 70; a place beyond the table scores 7; the final
  multiplies by 2. Players out on the same move with the same counted score and host rank
  share the places they cover and each score their exact mean (`shared_with` = how many);
  `points` is stored as a float, and the season sums recover the exact value from it (its
  denominator divides `shared_with`).
- **Season classification**: x = the season's regular rounds with results; each player
  counts their max(x − 1, 1) best regular rounds (a season of one round counts it) plus the
  final. `rounds_played` counts regular rounds; `rounds_counted` = min(rounds_played,
  max(x − 1, 1)). Ties: the final's **place** (not its points: every place beyond 25
  scores alike), finalists before non-finalists; then `rounds_counted`; then the number of
  1st places, of 2nd places, … over every round of the season (the final included); still
  tied, the players share the place.
- **Winning** requires the final (art. 16): the classification is not altered (a
  non-finalist with the most points keeps place 1) but each category's trophy goes to its
  best-placed finalist(s). A cup goes to the best-placed player(s) of each series, finalist
  or not: the remark of art. 16 names winning the challenge, which is the trophies.
- **Validation**: `warning` is 0, 1, 2 or empty; `penalty` a whole number ≥ 0 or empty;
  two warnings and a penalty on one move is an error (FISF §5.8: « Un avertissement ne se
  cumule pas avec une pénalité », only the disciplinary one may come on top). A round
  with an error in either export is not played; the final of a
  season is qualified only when every regular round of that season is valid; a season
  holds at most one final, and no regular round dated after it.
"""
