-- DevEUIs in one form (16 lowercase hex digits) before the format check of the next migration.
-- Separators and capitals go; the first device of a normalised DevEUI keeps it. A DevEUI that is
-- not 16 hex digits, or that another device already holds, is cleared and kept in the notes.
WITH normalised AS (
  SELECT id, dev_eui, lower(regexp_replace(dev_eui, '[\s:.\-]', '', 'g')) AS eui FROM devices WHERE dev_eui IS NOT NULL
), ranked AS (
  SELECT id, dev_eui, eui, row_number() OVER (PARTITION BY eui ORDER BY id) AS n FROM normalised
)
UPDATE devices d SET
  dev_eui = CASE WHEN r.eui ~ '^[0-9a-f]{16}$' AND r.n = 1 THEN r.eui END,
  notes = CASE WHEN r.eui ~ '^[0-9a-f]{16}$' AND r.n = 1 THEN d.notes
    ELSE concat_ws(E'\n', d.notes, 'DevEUI ' || r.dev_eui || ' removed: not 16 hex digits, or held by another device') END
FROM ranked r
WHERE d.id = r.id AND d.dev_eui IS DISTINCT FROM CASE WHEN r.eui ~ '^[0-9a-f]{16}$' AND r.n = 1 THEN r.eui END;
