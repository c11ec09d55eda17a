-- The stored lines of some complete deals of one month, in order. The month prunes whole
-- files and the id range (the deals' smallest and largest id) prunes row groups; the list
-- then picks the deals exactly.
select deal_id, seq, line, type, seat, tile, from_seat, kind, tiles, fan, patterns, deltas, settlement
from stg_events
where month = $month
    and deal_id between $first and $last
    and list_contains($deal_ids, deal_id)
order by deal_id, seq;
