"""Round-robin finals of the regional circuits (docs/rules.md §5b, source [001]): the Masters Grand
Sud and the Grand Est championship (its qualifying ranking and its final).

Pure transforms: Polars frames in, frames out; every number RULES marks as a parameter comes
in through `MastersParams` / `GrandEstParams` (loaded from `data/reference/round_robin.yaml`
and `data/reference/round_robin/` by `pipelines.reference.round_robin`).

Inputs use the export columns: the **matches** export (one row per player per match:
`tournament_id, round, table, player_id, opponent_id, player_moves, opponent_moves`,
optional `player_top_moves`, `player_points_scored`), a final's results with the optional
`withdrawn_after_round`, the Masters' annual ranking (`player_id, place`, one `as_of`) and
the Grand Est qualifying tournaments (`tournament_id, end_date`) with their results
(`tournament_id, player_id, rank`, optional `duplicate_rank`). Outputs are the tables
`round_robin_standings` and `grand_est_qualifying` (`transforms.tables.round_robin`).

Decisions taken here, where docs/rules.md §5b and [001] are silent:

- **Match result**: a match is won by the side with more moves (`player_moves` against
  `opponent_moves`), drawn when they are equal. A match's two rows (a row and its mirror)
  must agree on the table and on both move counts; `matches_errors` reports a match given
  from one side only, a contradiction, a player twice in a round, a pair meeting twice and
  two matches at one table, with French messages naming the row.
- **Seeds**: the participants of a final are numbered 1..16 in the order of the ranking
  that selected them (annual ranking, qualifying ranking), after the absentees are
  replaced: the 17th who replaces an absentee becomes number 16 of the pairing table.
  Players sharing a place are numbered by `player_id` (the only order the data gives); a
  shared place that straddles the last seat is an error (the ranking must settle who is
  invited).
- **Pairing table**: `pairing_errors` reports a played match that the table does not
  schedule in that round or at that table; the standings do not depend on it (a match
  played at the wrong table still counts).
- **Head-to-head**: the mini-table counts the win / draw / loss points of the tied
  players' games with each other only (not their moves). When it separates only some of
  them, the mini-table is computed again among those still level (for two players: their
  match), and only when it separates nobody does the next criterion apply.
- **Tie-break codes** (`tiebreak_used`): the criterion at which the player's place was
  separated from the last player they were level with; null when points alone decide.
  `play_off`: Masters players level for first after head-to-head — they share place 1
  with `play_off_needed` (never broken by the annual place); `ex_aequo`: level on every
  criterion, sharing the place (competition ranking, docs/rules.md §0).
- **Grand Est "points marqués dans les matchs"**: [001] defines them as "le nombre total
  de coups où ils ont marqué", i.e. the moves won (`player_moves`, a shared move counting
  for both); "le plus petit total de points marqués par leurs adversaires" is the moves
  the opponents won against the player (`moves_conceded`). `player_points_scored`, when
  exported, is validated (not negative) but is no criterion. Moves at the top are
  required for a Grand Est final; in duplicate-match a move at the top is a scored move,
  so `player_top_moves` may not exceed `player_moves` there.
- **Withdrawal**: docs/rules.md §5b writes the rule for the Grand Est; [001] is silent for the
  Masters, and the project applies the same rule (with the Masters' own R and D) to both
  finals. A withdrawn player is not ranked (place null, `withdrawn`); their counters are
  those of the games they played. A withdrawal is *late* when at most R rounds are left
  after it (a final of n players has n − 1 rounds) and every player still able to catch
  the leader at that moment has already played the withdrawn player. At that moment,
  "able to catch" counts the points of the games played up to that round (the games
  against other withdrawn players left out), the leader is the best of them, and a player
  can catch them when their points plus a win for each match they still had to play (the
  later matches of the export) reach the leader's points. For a late withdrawal, places
  1..D are decided with that player's games kept (players whose place with the games kept
  is at most D; ties at D all included), and the other players are ranked among
  themselves, after them, with the games annulled. Every other withdrawal annuls the
  player's games for everyone. `annulled_games` lists, per player, the opponents whose
  games do not count for that player's place.
- **Grand Est qualifying**: a qualifying tournament counts for the calendar year of its
  end date. A shared place scores that place's points (docs/rules.md §0); a place beyond the
  table scores 0. `places_histogram` counts the final places 1..32; the duplicate places
  (`duplicate_rank`) break the ties left and are not stored. Players level on points and
  both histograms share the place.
- **Grand Est final's 16**: the first 16 of the qualifying ranking, those who declined
  replaced by the next qualified; then each last-minute absentee replaced by the
  best-ranked player present in the room who was not invited and has a qualifying place
  (a player with no qualifying place cannot be called).
"""
