-- Find a deal: the shared filters (club, dates, rule set), a player who sat, the highest
-- fan of its wins, a pattern (base or extra) of any win, a finding code and a least number
-- of kongs; a null parameter filters nothing. Invalid deals have no wins (no fan, no
-- pattern) but keep their findings, so a search by code finds them too. Highest fan first,
-- then the newest; `matches` is how many deals match in all (before the limit).
-- The deals are picked on their stored columns and kept highest fan (mart_deal_fans); the
-- names as shown, the winners and the patterns are made for the deals shown only.
with picked as (
    select d.deal_id, d.session_id, d.played_date, d.club, d.rules, d.players, d.status, d.kongs, d.findings, d.finding_codes
    from deal_rows_in($club, $date_from, $date_to, $rules, $seats, $player) as d  -- 30_filters.sql
    cross join mart_shared_names as n
    where ($player is null or list_contains(shown_players(d.players, d.club, n.names), $player))
        and ($code is null or list_contains(d.finding_codes, $code))
        and ($min_kongs is null or d.kongs >= $min_kongs)
),

patterned as (
    -- the deals with a win of the pattern (only when one is asked for)
    select distinct deal_id
    from mart_wins
    where $pattern is not null and (base_pattern = $pattern or list_contains(extras, $pattern))
),

scored as materialized (
    select p.*, f.max_fan
    from picked as p
    left join mart_deal_fans as f using (deal_id)
    where ($min_fan is null or f.max_fan >= $min_fan)
        and ($pattern is null or p.deal_id in (select deal_id from patterned))
),

matched as (
    select *, (select count(*) from scored) as matches
    from scored
    order by max_fan desc nulls last, played_date desc nulls last, deal_id
    limit $limit
),

shown as (
    -- the winners and patterns of the deals shown only
    select
        deal_id,
        list_distinct(flatten(list(list_prepend(base_pattern, extras)))) as patterns,
        -- each winner with the fan of each of its wins ("Bo 1+1+1" when it won three times)
        string_agg(player || ' ' || array_to_string(win_fans, '+'), ', ' order by win_order) as winners
    from mart_wins
    where deal_id in (select deal_id from matched)
    group by deal_id
)

select
    m.deal_id,
    m.session_id,
    m.played_date,
    m.club,
    m.rules,
    m.status,
    array_to_string(shown_players(m.players, m.club, n.names), ', ') as players,
    s.winners,
    m.max_fan,
    s.patterns,
    m.kongs,
    m.findings,
    m.finding_codes,
    m.matches
from matched as m
cross join mart_shared_names as n
left join shown as s using (deal_id)
order by m.max_fan desc nulls last, m.played_date desc nulls last, m.deal_id;
