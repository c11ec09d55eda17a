-- Audit: deals by status, and quarantined lines by reason.
select 'deals' as what, status as label, count(*) as count
from stg_deals
group by status
union all
select 'quarantine_lines' as what, reason as label, count(*) as count
from stg_quarantine
group by reason
order by what, label;
