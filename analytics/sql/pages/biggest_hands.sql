-- The club's biggest hands under the shared filters: the wins with the highest fan before
-- the cap (封顶), then the most points, then the newest (rare_hands.sql lists the rare ones).
select
    deal_id,
    played_date,
    club,
    rules,
    player,
    fan,
    fan_uncapped,
    base_pattern,
    extras,
    win_kind,
    win_points
from wins_in($club, $date_from, $date_to, $rules, $seats)
order by fan_uncapped desc, win_points desc, played_date desc nulls last, deal_id, player
limit $limit;
