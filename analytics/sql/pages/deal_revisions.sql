-- Every revision of the deals that were corrected (ingest/logs/revisions.py), the latest first:
-- statistics count only the latest (analytics/sql/10_staging.sql), the Audit page lists all;
-- `deleted` marks a revision that removes its deal (none of its revisions count).
select
    deal_id,
    revision,
    is_latest,
    deleted,
    stored_id,
    session_id,
    status,
    findings,
    scores,
    file,
    line
from stg_deal_revisions
where $session_id is null or session_id = $session_id
order by session_id, deal_id, revision desc
limit 500;
