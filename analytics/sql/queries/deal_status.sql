-- Audit: deals by status, and quarantined lines by reason (mart_quarantine_reasons).
select 'deals' as what, status as label, count(*) as count
from stg_deals
group by status
union all
select 'quarantine_lines' as what, reason as label, cast(sum(lines) as bigint) as count
from mart_quarantine_reasons
group by reason
order by what, label;
