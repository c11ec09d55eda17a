-- One row: wins, average fan, 封顶率 (share of wins whose fan the cap cut) and roots.
-- Two exclusive branches (30_filters.sql): with no tablemates the sums of mart_win_days,
-- else the same sums of the tablemates' deals' winning seats.
with win_sums as (
    select
        fan, roots, capped, is_sheet,
        cast(sum(wins) as bigint) as wins,
        cast(sum(fan_uncapped) as bigint) as fan_uncapped,
        cast(sum(fan_uncapped_count) as bigint) as fan_uncapped_count
    from sums_in('mart_win_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where $player is null or player = $player
    group by fan, roots, capped, is_sheet
    union all
    select
        fan, roots, capped, is_sheet,
        count(*) as wins,
        cast(sum(fan_uncapped) as bigint) as fan_uncapped,
        count(fan_uncapped) as fan_uncapped_count
    from seat_deals_in($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0 and won and ($player is null or player = $player)
    group by fan, roots, capped, is_sheet
)

select
    coalesce(cast(sum(wins) as bigint), 0) as wins,
    sum(fan * wins) filter (where fan is not null) / sum(wins) filter (where fan is not null) as avg_fan,
    sum(fan_uncapped) / nullif(sum(fan_uncapped_count), 0) as avg_fan_uncapped,
    coalesce(cast(sum(wins) filter (where capped) as bigint), 0) as capped,
    case when sum(wins) > 0 then coalesce(sum(wins) filter (where capped), 0) / sum(wins) end as cap_rate,
    cast(sum(roots * wins) as bigint) as roots,
    sum(roots * wins) filter (where roots is not null) / sum(wins) filter (where roots is not null) as avg_roots,
    coalesce(cast(sum(wins) filter (where roots > 0) as bigint), 0) as wins_with_roots,
    coalesce(cast(sum(wins) filter (where is_sheet) as bigint), 0) as sheet_wins  -- wins from score sheets, counted as any
from win_sums;
