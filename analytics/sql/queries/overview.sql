-- The overview page's numbers at a glance: deals of every status, sessions, players (who
-- sat in a complete deal: the materialized seats, not an unnest of every deal), the first
-- and last day, the share of deals with findings (status findings) and, apart, the share
-- of invalid deals (not replayed to their end: nothing says whether they are right).
-- No row on an empty warehouse. sheet_deals / tile_deals: deals recorded as score sheets
-- (no tiles) and as tiles. wins: every win of the complete deals (血流成河: a seat may win
-- again), wins_per_deal over them; repeat_wins: wins beyond a seat's first in its deal (0
-- where each seat wins at most once, 血战到底). With a player picked: the wins of that
-- player's deals, and the repeated wins of every seat of them.
-- Two exclusive branches: with no player picked the sums of mart_deal_days, the sessions of
-- mart_sessions and the players of mart_player_days (a page's own filters read a few rows
-- a day); with a player, that player's deals and every seat of them.
with picked as (
    select *
    from deals_in($club, $date_from, $date_to, $rules, $seats, $player)  -- 30_filters.sql
    where $player is not null
),

seated as (
    select
        count(distinct player) as players,
        cast(coalesce(sum(win_count - 1) filter (where won), 0) as bigint) as repeat_wins
    from seat_deals_in($club, $date_from, $date_to, $rules, $seats, cast([] as varchar[]))
    where $player is not null and deal_id in (select deal_id from picked)
),

days as (
    select *
    from sums_in('mart_deal_days', $club, $date_from, $date_to, $rules, $seats, cast([] as varchar[]))
    where $player is null
),

day_seated as (
    select
        count(distinct player) as players,
        cast(coalesce(sum(all_wins) - sum(wins), 0) as bigint) as repeat_wins
    from sums_in('mart_player_days', $club, $date_from, $date_to, $rules, $seats, cast([] as varchar[]))
    where $player is null
),

totals as (
    select
        count(*) as deals,
        count(*) filter (where is_complete) as complete_deals,
        count(*) filter (where status = 'ok') as ok_deals,
        count(*) filter (where status = 'findings') as findings_deals,
        count(*) filter (where status = 'invalid') as invalid_deals,
        count(distinct session_id) as sessions,
        any_value(seated.players) as players,
        min(played_date) as first_day,
        max(played_date) as last_day,
        cast(sum(findings) as bigint) as findings,
        count(*) filter (where is_sheet) as sheet_deals,
        count(*) filter (where not is_sheet) as tile_deals,
        cast(coalesce(sum(wins) filter (where is_complete), 0) as bigint) as wins,
        any_value(seated.repeat_wins) as repeat_wins
    from picked, seated
    where $player is not null
    union all
    select
        cast(coalesce(sum(deals), 0) as bigint) as deals,
        cast(coalesce(sum(complete_deals), 0) as bigint) as complete_deals,
        cast(coalesce(sum(ok_deals), 0) as bigint) as ok_deals,
        cast(coalesce(sum(findings_deals), 0) as bigint) as findings_deals,
        cast(coalesce(sum(invalid_deals), 0) as bigint) as invalid_deals,
        (
            select count(distinct session_id)
            from sessions_in($club, $date_from, $date_to, $rules, $seats, null)  -- 30_filters.sql
        ) as sessions,
        any_value(day_seated.players) as players,
        min(played_date) as first_day,
        max(played_date) as last_day,
        cast(sum(findings) as bigint) as findings,
        cast(coalesce(sum(sheet_deals), 0) as bigint) as sheet_deals,
        cast(coalesce(sum(tile_deals), 0) as bigint) as tile_deals,
        cast(coalesce(sum(wins), 0) as bigint) as wins,
        any_value(day_seated.repeat_wins) as repeat_wins
    from days, day_seated
    where $player is null
)

select
    deals,
    complete_deals,
    ok_deals,
    findings_deals,
    invalid_deals,
    findings_deals / deals as findings_share,
    invalid_deals / deals as invalid_share,
    sessions,
    players,
    first_day,
    last_day,
    findings,
    sheet_deals,
    tile_deals,
    wins,
    wins / nullif(complete_deals, 0) as wins_per_deal,
    repeat_wins
from totals
where deals > 0;
