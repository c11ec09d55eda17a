-- Sessions, the latest first, with their deals and how many have findings (the replay and
-- audit pages choose from it).
with picked as (
    select *
    from stg_deals
    where ($club is null or club = $club)
        and ($date_from is null or played_date >= $date_from)
        and ($date_to is null or played_date <= $date_to)
        and ($rules is null or rules = $rules)
        and ($player is null or list_contains(players, $player))
)

select
    session_id,
    min(played_at) as played_at,
    any_value(club) as club,
    any_value("table") as "table",
    any_value(rules) as rules,
    any_value(players) as players,
    count(*) as deals,
    count(*) filter (where status <> 'ok') as findings_deals
from picked
group by session_id
order by played_at desc nulls last, session_id;
