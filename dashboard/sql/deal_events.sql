-- The stored lines of complete deals, in order (month first: it prunes whole files).
select deal_id, seq, line, type, seat, tile, from_seat, kind, tiles, fan, patterns, deltas, settlement
from stg_events
where month = $month and list_contains($deal_ids, deal_id)
order by deal_id, seq;
