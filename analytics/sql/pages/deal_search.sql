-- Find a deal: the shared filters (club, dates, rule set), a player who sat, the highest
-- fan of its wins, a pattern (base or extra) of any win, a finding code and a least number
-- of kongs; a null parameter filters nothing. Invalid deals have no wins (no fan, no
-- pattern) but keep their findings, so a search by code finds them too. Highest fan first,
-- then the newest; `matches` is how many deals match in all (before the limit).
with picked as (
    select deal_id, session_id, played_date, club, rules, players, status, kongs, findings, finding_codes
    from deals_in($club, $date_from, $date_to, $rules, $player)  -- 30_filters.sql
    where ($code is null or list_contains(finding_codes, $code))
        and ($min_kongs is null or kongs >= $min_kongs)
),

wins as (
    -- per deal: the best fan and whether a win has the pattern (cheap, for every deal)
    select
        deal_id,
        max(list_max(win_fans)) as max_fan,  -- every win (血流成河: a seat's later ones too)
        bool_or(base_pattern = $pattern or list_contains(extras, $pattern)) as has_pattern
    from mart_wins
    where deal_id in (select deal_id from picked)
    group by deal_id
),

matched as (
    select p.*, w.max_fan, count(*) over () as matches
    from picked as p
    left join wins as w using (deal_id)
    where ($min_fan is null or w.max_fan >= $min_fan)
        and ($pattern is null or w.has_pattern)
    order by w.max_fan desc nulls last, p.played_date desc nulls last, p.deal_id
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
    array_to_string(m.players, ', ') as players,
    s.winners,
    m.max_fan,
    s.patterns,
    m.kongs,
    m.findings,
    m.finding_codes,
    m.matches
from matched as m
left join shown as s using (deal_id)
order by m.max_fan desc nulls last, m.played_date desc nulls last, m.deal_id;
