-- Find a deal: the shared filters (club, dates, rule set), a player who sat, the highest
-- fan of its wins, a pattern (base or extra) of any win, a finding code and a least number
-- of kongs; a null parameter filters nothing. Invalid deals have no wins (no fan, no
-- pattern) but keep their findings, so a search by code finds them too. Highest fan first,
-- then the newest; `matches` is how many deals match in all (before the limit).
with picked as (
    select deal_id, session_id, played_date, club, rules, players, status, kongs, findings, finding_codes
    from stg_deals
    where ($club is null or club = $club)
        and ($date_from is null or played_date >= $date_from)
        and ($date_to is null or played_date <= $date_to)
        and ($rules is null or rules = $rules)
        and ($player is null or list_contains(players, $player))
        and ($code is null or list_contains(finding_codes, $code))
        and ($min_kongs is null or kongs >= $min_kongs)
),

wins as (
    select
        deal_id,
        max(fan) as max_fan,
        list_distinct(flatten(list(list_prepend(base_pattern, extras)))) as patterns,
        string_agg(player || ' ' || fan, ', ' order by win_order) as winners
    from mart_wins
    where deal_id in (select deal_id from picked)
    group by deal_id
)

select
    p.deal_id,
    p.session_id,
    p.played_date,
    p.club,
    p.rules,
    p.status,
    array_to_string(p.players, ', ') as players,
    w.winners,
    w.max_fan,
    w.patterns,
    p.kongs,
    p.findings,
    p.finding_codes,
    count(*) over () as matches
from picked as p
left join wins as w using (deal_id)
where ($min_fan is null or w.max_fan >= $min_fan)
    and ($pattern is null or list_contains(w.patterns, $pattern))
order by w.max_fan desc nulls last, p.played_date desc nulls last, p.deal_id
limit $limit;
