-- One row per session and player: the session's net (its complete deals under the
-- filters), the placement 1..N (1st = highest net) and the table's size, ranked by
-- session_ranks (30_filters.sql: the tie rule, the marts it reads). The player filter
-- applies after the ranking: a player's placements are always among the whole table.
select session_id, played_at, played_date, player, seat, deals, net, placement, table_size
from session_ranks($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
where $player is null or player = $player
order by played_at nulls first, session_id, placement;
