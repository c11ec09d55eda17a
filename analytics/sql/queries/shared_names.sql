-- Player names seen in more than one club under the shared filters. Players are per club,
-- so such a name is several people, shown as "Name (club)" (mart_shared_names): the pages
-- say so. `player` is the name as written, `clubs` the clubs it plays in.
select
    s.name as player,
    list_sort(list_distinct(list(s.club))) as clubs
from seat_deals_in($club, $date_from, $date_to, $rules, cast([] as varchar[])) as s
where s.club is not null
group by s.name
having count(distinct s.club) > 1
order by s.name;
