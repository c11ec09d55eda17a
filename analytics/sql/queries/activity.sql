-- Deals per week (the week's Monday), how many of them have findings or are invalid
-- (findings_deals: not ok), and apart how many are invalid (not replayed to their end).
with picked as (
    select *
    from (  -- players are per club: the names as shown (mart_shared_names, 20_marts.sql)
        select d.* replace (list_transform(d.players, lambda p: shown_player(p, d.club, n.names)) as players)
        from stg_deals as d
        cross join mart_shared_names as n
    )
    where ($club is null or club = $club)
        and ($date_from is null or played_date >= $date_from)
        and ($date_to is null or played_date <= $date_to)
        and ($rules is null or rules = $rules)
        and ($player is null or list_contains(players, $player))
        and played_date is not null
)

select
    cast(date_trunc('week', played_date) as date) as week,
    count(*) as deals,
    count(*) filter (where status <> 'ok') as findings_deals,
    count(*) filter (where status = 'invalid') as invalid_deals,
    count(distinct session_id) as sessions
from picked
group by week
order by week;
