-- The players (as shown everywhere, "Name (club)" when the name plays in several clubs) that
-- a club's roster marks guests (analytics/roster.py): the leaderboards list them apart.
select distinct shown_player(r.shown, r.club, n.names) as player, r.club
from roster_names as r
cross join mart_shared_names as n
where r.guest
order by player;
