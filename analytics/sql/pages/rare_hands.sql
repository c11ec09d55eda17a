-- Every win with a rare pattern (`$rare`: 天胡, 地胡, 龙七对...) as its base or an extra,
-- under the shared filters, the newest first.
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
where (list_contains($rare, base_pattern) or list_has_any(extras, $rare))
order by played_date desc nulls last, fan_uncapped desc, deal_id, player
limit $limit;
