-- The players a name as written stands for (players are per club): one row when the name
-- plays in one club, one per club ("Name (club)") when it plays in several. A lookup by a
-- bare name that is ambiguous uses this to say so.
select distinct
    player,
    club
from mart_seat_deals
where name = $player
order by player;
