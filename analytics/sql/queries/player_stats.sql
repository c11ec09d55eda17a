-- One row per player: the player table and the player card (rates are shares, 0..1).
-- wins / win_rate count deals won (a seat that wins twice in a 血流成河 deal counts the deal
-- once); all_wins counts every win, repeat_wins those beyond a seat's first in its deal.
-- avg_fan is over every win; the other win columns (self draws, points, order, biggest win)
-- describe each deal's first win of the seat.
-- Score-sheet deals count in everything but what needs tiles (the average win turn), which
-- leaves them out: sheet_deals_excluded says how many.
-- Added: table_sizes, the table sizes the row counts (sorted: [4], [3, 4]); a rate over
-- several sizes mixes them ($seats picks one).
-- Two exclusive branches (as in 30_filters.sql): with no tablemates the sums come from
-- mart_player_days (per player, club, rule set and day); with tablemates, from their
-- deals' seat rows. Both give the same numbers for the same deals.
with days as (
    select *
    from sums_in('mart_player_days', $club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where ($player is null or player = $player)
),

picked as (
    select *
    from seat_deals_in($club, $date_from, $date_to, $rules, $seats, cast($tablemates as varchar[]))
    where len(cast($tablemates as varchar[])) > 0 and ($player is null or player = $player)
),

per_player as (
    select
        player,
        cast(sum(deals) as bigint) as deals,
        cast(sum(wins) as bigint) as wins,
        cast(sum(all_wins) as bigint) as all_wins,
        cast(sum(self_draws) as bigint) as self_draws,
        cast(sum(deal_ins) as bigint) as deal_ins,
        cast(sum(deal_in_deals) as bigint) as deal_in_deals,
        cast(sum(fan_total) as bigint) as fan_total,
        cast(sum(win_points_total) as bigint) as win_points_total,
        cast(sum(deal_in_points) as bigint) as deal_in_points,
        cast(sum(net) as bigint) as net,
        cast(sum(kongs) as bigint) as kongs,
        cast(sum(kongs_exposed) as bigint) as kongs_exposed,
        cast(sum(kongs_added) as bigint) as kongs_added,
        cast(sum(kongs_concealed) as bigint) as kongs_concealed,
        cast(sum(kong_income) as bigint) as kong_income,
        cast(sum(flower_pigs) as bigint) as flower_pigs,
        cast(sum(wall_end_deals) as bigint) as wall_end_deals,
        cast(sum(ready_at_end) as bigint) as ready_at_end,
        cast(sum(cha_jiao_paid) as bigint) as cha_jiao_paid,
        cast(sum(cha_jiao_received) as bigint) as cha_jiao_received,
        cast(sum(win_order_1) as bigint) as win_order_1,
        cast(sum(win_order_2) as bigint) as win_order_2,
        cast(sum(win_order_3) as bigint) as win_order_3,
        sum(win_turn_total) / nullif(sum(win_turn_count), 0) as avg_win_turn,
        cast(sum(sheet_deals) as bigint) as sheet_deals,
        max(biggest_win) as biggest_win,
        first(best_fan order by best_points desc nulls last, best_fan desc nulls last, best_deal) filter (where best_points is not null) as biggest_win_fan,
        first(best_deal order by best_points desc nulls last, best_fan desc nulls last, best_deal) filter (where best_points is not null) as biggest_win_deal,
        list_sort(list(distinct seats)) as table_sizes
    from days
    group by player
    union all
    select
        player,
        count(*) as deals,
        count(*) filter (where won) as wins,
        cast(sum(win_count) as bigint) as all_wins,
        count(*) filter (where is_self_draw) as self_draws,
        cast(sum(dealt_in) as bigint) as deal_ins,
        count(*) filter (where dealt_in > 0) as deal_in_deals,
        cast(sum(list_sum(win_fans)) filter (where won) as bigint) as fan_total,
        cast(sum(win_points) filter (where won) as bigint) as win_points_total,
        cast(sum(deal_in_points) as bigint) as deal_in_points,
        cast(sum(net) as bigint) as net,
        cast(sum(kongs) as bigint) as kongs,
        cast(sum(kongs_exposed) as bigint) as kongs_exposed,
        cast(sum(kongs_added) as bigint) as kongs_added,
        cast(sum(kongs_concealed) as bigint) as kongs_concealed,
        cast(sum(kong_income) as bigint) as kong_income,
        count(*) filter (where flower_pig) as flower_pigs,
        count(ready_at_end) as wall_end_deals,
        count(*) filter (where ready_at_end) as ready_at_end,
        cast(sum(cha_jiao_paid) as bigint) as cha_jiao_paid,
        cast(sum(cha_jiao_received) as bigint) as cha_jiao_received,
        count(*) filter (where win_order = 1) as win_order_1,
        count(*) filter (where win_order = 2) as win_order_2,
        count(*) filter (where win_order = 3) as win_order_3,
        avg(win_turn) filter (where won and not is_sheet) as avg_win_turn,
        count(*) filter (where is_sheet) as sheet_deals,
        max(win_points) as biggest_win,
        -- ties on points go to the higher fan, then the earliest deal_id: the same answer every call
        first(fan order by win_points desc nulls last, fan desc nulls last, deal_id) filter (where win_points is not null) as biggest_win_fan,
        first(deal_id order by win_points desc nulls last, fan desc nulls last, deal_id) filter (where win_points is not null) as biggest_win_deal,
        list_sort(list(distinct seats)) as table_sizes
    from picked
    group by player
)

select
    player,
    deals,
    wins,
    wins / deals as win_rate,  -- deals with at least one win
    all_wins,  -- every win: 血流成河 counts a seat's wins after its first
    all_wins - wins as repeat_wins,  -- wins beyond the seat's first in a deal
    all_wins / deals as wins_per_deal,
    self_draws,
    case when wins > 0 then self_draws / wins end as self_draw_rate,
    deal_ins,
    deal_in_deals / deals as deal_in_rate,
    case when all_wins > 0 then fan_total / all_wins end as avg_fan,  -- over every win
    case when wins > 0 then win_points_total / wins end as avg_win_points,
    case when deal_ins > 0 then deal_in_points / deal_ins end as avg_deal_in_loss,
    net,
    net / deals as net_per_deal,
    kongs,
    kongs / deals as kong_rate,
    kongs_exposed,
    kongs_added,
    kongs_concealed,
    kong_income,
    kong_income / deals as kong_income_per_deal,
    flower_pigs,
    flower_pigs / deals as flower_pig_rate,
    wall_end_deals,
    ready_at_end,
    case when wall_end_deals > 0 then ready_at_end / wall_end_deals end as ready_at_end_rate,
    cha_jiao_paid,
    cha_jiao_received,
    win_order_1,
    win_order_2,
    win_order_3,
    avg_win_turn,
    biggest_win,
    biggest_win_fan,
    biggest_win_deal,
    sheet_deals,
    sheet_deals as sheet_deals_excluded,  -- left out of avg_win_turn (a sheet has no turns)
    table_sizes
from per_player
order by net desc, player;
