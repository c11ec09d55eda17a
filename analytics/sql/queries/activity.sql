-- Deals per week (the week's Monday), how many of them have findings or are invalid
-- (findings_deals: not ok), and apart how many are invalid (not replayed to their end).
with picked as (
    select *
    from deals_in($club, $date_from, $date_to, $rules, $player)  -- 30_filters.sql
    where played_date is not null
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
