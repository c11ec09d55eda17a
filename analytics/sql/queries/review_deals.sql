-- 复盘: the deals behind a player's review figures under the filters, one row a deal
-- (newest first, at most $limit): which of them hold a discard off the best, a backward
-- discard, a 定缺 off the best, a deal-in while not ready, a win passed; and the seat's
-- costliest discard (worst_*: its line, tile, the best tiles and the loss), what the
-- Review page's "five costliest decisions" orders by (worst_loss, then the newest).
select
    deal_id,
    played_date,
    seat,
    tiles,
    why,
    discards,
    discards - best as off_best,
    backward,
    voids - void_agree as void_off,
    deal_ins_not_ready,
    passes,
    passed_fan,
    worst_line,
    worst_tile,
    worst_best,
    worst_loss
from mart_review_seats
where kept_by($club, $date_from, $date_to, $rules, $seats, club, played_date, rules, seats)
    and player = $player
    and ($costliest is null or ($costliest and worst_loss > 0))
order by
    case when $costliest then worst_loss end desc nulls last,
    played_date desc nulls last,
    deal_id desc
limit coalesce($limit, 1000000);
