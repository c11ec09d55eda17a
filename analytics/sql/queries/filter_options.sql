-- What the shared filters can choose from: each club and rule set with its deals and days,
-- and (added) its table size: the players of its deals (a rule set has one size).
select
    club,
    rules,
    count(*) as deals,
    min(played_date) as first_day,
    max(played_date) as last_day,
    max(len(players)) as seats
from stg_deals
group by club, rules
order by deals desc, club, rules;
