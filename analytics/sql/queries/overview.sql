-- The overview page's numbers at a glance: deals of every status, sessions, players (who
-- sat in a complete deal: the materialized seats, not an unnest of every deal), the first
-- and last day, the share of deals with findings (status findings) and, apart, the share
-- of invalid deals (not replayed to their end: nothing says whether they are right).
-- No row on an empty warehouse. sheet_deals / tile_deals: deals recorded as score sheets
-- (no tiles) and as tiles. wins: every win of the complete deals (血流成河: a seat may win
-- again), wins_per_deal over them; repeat_wins: wins beyond a seat's first in its deal (0
-- where each seat wins at most once, 血战到底). With a player picked: the wins of that
-- player's deals, and the repeated wins of every seat of them.
with picked as (
    select *
    from deals_in($club, $date_from, $date_to, $rules, $player)  -- 30_filters.sql
),

-- two exclusive branches, as in 30_filters.sql: with no player the IN is dropped when the
-- plan is made (an OR with it built a hash table of every deal id at every query)
seated as (
    select
        count(distinct player) as players,
        cast(coalesce(sum(win_count - 1) filter (where won), 0) as bigint) as repeat_wins
    from (
        select player, won, win_count
        from seat_deals_in($club, $date_from, $date_to, $rules, cast([] as varchar[]))
        where $player is null
        union all
        select player, won, win_count
        from seat_deals_in($club, $date_from, $date_to, $rules, cast([] as varchar[]))
        where $player is not null and deal_id in (select deal_id from picked)
    )
)

select
    count(*) as deals,
    count(*) filter (where is_complete) as complete_deals,
    count(*) filter (where status = 'ok') as ok_deals,
    count(*) filter (where status = 'findings') as findings_deals,
    count(*) filter (where status = 'invalid') as invalid_deals,
    count(*) filter (where status = 'findings') / count(*) as findings_share,
    count(*) filter (where status = 'invalid') / count(*) as invalid_share,
    count(distinct session_id) as sessions,
    any_value(seated.players) as players,
    min(played_date) as first_day,
    max(played_date) as last_day,
    cast(sum(findings) as bigint) as findings,
    count(*) filter (where is_sheet) as sheet_deals,
    count(*) filter (where not is_sheet) as tile_deals,
    cast(coalesce(sum(wins) filter (where is_complete), 0) as bigint) as wins,
    sum(wins) filter (where is_complete) / nullif(count(*) filter (where is_complete), 0) as wins_per_deal,
    any_value(seated.repeat_wins) as repeat_wins
from picked, seated
having count(*) > 0;
