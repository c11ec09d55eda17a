-- Player names seen in more than one club under the shared filters. Players are per club,
-- so such a name is several people, shown as "Name (club)" (mart_shared_names): the pages
-- say so. `player` is the name as written, `clubs` the clubs it plays in. Read from the
-- sums per player and day (mart_player_days, which keeps the name as written), not the seats.
select
    d.name as player,
    list_sort(list_distinct(list(d.club))) as clubs
from sums_in('mart_player_days', $club, $date_from, $date_to, $rules, $seats, cast([] as varchar[])) as d
where d.club is not null
group by d.name
having count(distinct d.club) > 1
order by d.name;
