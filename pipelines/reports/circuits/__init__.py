"""The regional circuits' reports, one folder per calendar year (docs/rules.md §5).

`circuits/<year>/index.html` lists the year's circuits; each circuit with results that year
has its page `circuits/<year>/<slug>.html` (and its PDF): the PACA ranking (`paca`: the
ranking after each tournament, the top 16 over the year, the clubs, the Masters PACA
invitees, every tournament's points) and the round-robin finals (`finals`: crosstable,
standings, the tie-break deciding each place, a withdrawal's annulled games, the Grand Est
qualifying ranking). The pages use the season report's machinery (`page`, `Section`,
charts) with sections of their own (`pages` assembles them).
"""
