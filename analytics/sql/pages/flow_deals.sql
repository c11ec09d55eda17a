-- The deals behind one cell of the head-to-head matrix: every deal in which $payer paid
-- $payee, with the points and the reasons (the shared filters apply).
select
    deal_id,
    session_id,
    played_date,
    cast(sum(amount) as bigint) as points,
    list_sort(list_distinct(list(reason))) as reasons,
    count(*) as transfers
from flows_in($club, $date_from, $date_to, $rules, $seats, cast([] as varchar[]))
where payer_player = $payer and payee_player = $payee
group by deal_id, session_id, played_date
order by played_date desc nulls last, deal_id
limit 500;
