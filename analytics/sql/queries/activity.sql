-- Deals per week (the week's Monday), how many of them have findings or are invalid
-- (findings_deals: not ok), and apart how many are invalid (not replayed to their end).
-- Two exclusive branches: with no player picked the days of mart_deal_days and the
-- sessions of mart_sessions; with a player, that player's deals.
with picked as (
    select *
    from deals_in($club, $date_from, $date_to, $rules, $seats, $player)  -- 30_filters.sql
    where $player is not null and played_date is not null
),

weeks as (
    select
        cast(date_trunc('week', played_date) as date) as week,
        count(*) as deals,
        count(*) filter (where status <> 'ok') as findings_deals,
        count(*) filter (where status = 'invalid') as invalid_deals,
        count(distinct session_id) as sessions
    from picked
    group by week
    union all
    select
        d.week,
        d.deals,
        d.findings_deals,
        d.invalid_deals,
        coalesce(s.sessions, 0) as sessions
    from (
        select
            cast(date_trunc('week', played_date) as date) as week,
            cast(sum(deals) as bigint) as deals,
            cast(sum(not_ok_deals) as bigint) as findings_deals,
            cast(sum(invalid_deals) as bigint) as invalid_deals
        from sums_in('mart_deal_days', $club, $date_from, $date_to, $rules, $seats, cast([] as varchar[]))
        where $player is null and played_date is not null
        group by week
    ) as d
    left join (
        select cast(date_trunc('week', played_date) as date) as week, count(distinct session_id) as sessions
        from sessions_in($club, $date_from, $date_to, $rules, $seats, null)  -- 30_filters.sql
        where $player is null and played_date is not null
        group by week
    ) as s using (week)
)

select week, deals, findings_deals, invalid_deals, sessions
from weeks
order by week;
