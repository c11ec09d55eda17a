-- Sessions, the latest first, with their deals and how many have findings (the replay and
-- audit pages choose from it).
with picked as (
    select *
    from deals_in($club, $date_from, $date_to, $rules, $player)  -- 30_filters.sql
)

select
    session_id,
    min(played_at) as played_at,
    count(*) filter (where status = 'invalid') as invalid_deals,  -- not replayed to their end
    any_value(club) as club,
    any_value("table") as "table",
    any_value(rules) as rules,
    any_value(players) as players,
    count(*) as deals,
    count(*) filter (where status <> 'ok') as findings_deals,
    count(*) filter (where not is_sheet) as tile_deals  -- the replay opens on a session it can draw
from picked
group by session_id
order by played_at desc nulls last, session_id;
