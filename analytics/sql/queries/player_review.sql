-- 复盘: one row per player, the review summary under the filters (ingest/review/__init__.py
-- PlayerTally.summary, from the figures the review step kept: mart_review_seats). Percentages
-- are 0..100 with one decimal, as the CLI's JSON. sheet_deals: score-sheet deals (their
-- points only: no tiles to review); not_reviewed: the player's deals the review step
-- (chuanma review --warehouse DIR --store) has not reached yet.
-- club_start_shanten: every player's average shanten as dealt under the same filters;
-- pending_deals: every deal under the same filters not reviewed yet (each counted once).
-- whole: a player's row over the whole period; else its row of one month ('YYYY-MM'; null
-- for its deals of no known day, which no month lists).
with picked as (
    select *, strftime(played_date, '%Y-%m') as month
    from mart_review_seats
    where kept_by($club, $date_from, $date_to, $rules, $seats, club, played_date, rules, seats)
),

club as (
    select
        round(avg(start_shanten), 2) as club_start_shanten,
        count(distinct deal_id) filter (where not reviewed) as pending_deals
    from picked
)

select
    player,
    grouping(month) = 1 as whole,
    month,
    count(*) as deals,
    count(*) filter (where tiles) as tile_deals,
    count(*) filter (where not tiles) as sheet_deals,
    count(*) filter (where not reviewed) as not_reviewed,
    min(played_date) as first_day,
    max(played_date) as last_day,
    cast(coalesce(sum(discards), 0) as bigint) as discards,
    cast(coalesce(sum(best), 0) as bigint) as best,
    round(100 * sum(best) / nullif(sum(discards), 0), 1) as best_pct,
    cast(coalesce(sum(loss), 0) as bigint) as loss,
    cast(coalesce(sum(backward), 0) as bigint) as backward,
    cast(coalesce(sum(void_agree), 0) as bigint) as void_agree,
    round(sum(loss) / nullif(sum(discards), 0), 2) as average_loss,
    round(100 * sum(backward) / nullif(sum(discards), 0), 1) as backward_pct,
    cast(coalesce(sum(voids), 0) as bigint) as voids,
    round(100 * sum(void_agree) / nullif(sum(voids), 0), 1) as void_agreement_pct,
    round(avg(start_shanten), 2) as average_start_shanten,
    any_value(c.club_start_shanten) as club_start_shanten,
    any_value(c.pending_deals) as pending_deals,
    cast(coalesce(sum(deal_ins), 0) as bigint) as deal_ins,
    cast(coalesce(sum(deal_ins_not_ready), 0) as bigint) as deal_ins_not_ready,
    cast(coalesce(sum(forced_deal_ins), 0) as bigint) as forced_deal_ins,
    cast(coalesce(sum(passes), 0) as bigint) as passes,
    cast(coalesce(sum(passed_fan), 0) as bigint) as passed_fan,
    cast(coalesce(sum(passed_then_won), 0) as bigint) as passed_then_won,
    cast(coalesce(sum(passed_then_won_fan), 0) as bigint) as passed_then_won_fan,
    cast(coalesce(sum(money_wins), 0) as bigint) as money_wins,
    cast(coalesce(sum(money_deal_ins), 0) as bigint) as money_deal_ins,
    cast(coalesce(sum(money_self_draws), 0) as bigint) as money_self_draws,
    cast(coalesce(sum(money_kongs), 0) as bigint) as money_kongs,
    cast(coalesce(sum(money_call_transfer), 0) as bigint) as money_call_transfer,
    cast(coalesce(sum(money_cha_jiao), 0) as bigint) as money_cha_jiao,
    cast(coalesce(sum(money_flower_pig), 0) as bigint) as money_flower_pig,
    cast(coalesce(sum(money_refunds), 0) as bigint) as money_refunds
from picked
cross join club as c
where $player is null or player = $player
group by grouping sets ((player), (player, month))
order by player, whole desc, month;
