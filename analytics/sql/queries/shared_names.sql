-- Player names seen in more than one club under the shared filters (the statistics key a
-- player by name, so such a name adds up different people: the pages say so and ask for a
-- club).
select
    s.player,
    list_sort(list_distinct(list(s.club))) as clubs
from seat_deals_in($club, $date_from, $date_to, $rules, cast([] as varchar[])) as s
where s.club is not null
group by s.player
having count(distinct s.club) > 1
order by s.player;
