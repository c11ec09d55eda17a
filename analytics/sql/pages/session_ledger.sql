-- Every computed payment of one session's complete deals, deal by deal in file order,
-- each with its reason (engine/settlement.py REASONS) and the players' names.
with picked as (
    select deal_id, month, file, line as deal_line
    from stg_deals
    where session_id = $session_id
)

select
    l.deal_id,
    l.seq,
    l.line,
    l.reason,
    l.payer,
    l.payee,
    l.payer_player,
    l.payee_player,
    l.amount
from stg_ledger as l
inner join picked as p on l.deal_id = p.deal_id and l.month = p.month
order by p.file, p.deal_line, l.seq;
