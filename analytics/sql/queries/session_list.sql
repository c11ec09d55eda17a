-- Sessions, the latest first, with their deals and how many have findings (the replay and
-- audit pages choose from it).
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
