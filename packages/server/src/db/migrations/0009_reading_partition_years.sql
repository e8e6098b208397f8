-- Readings are kept for the years 2000 … next year (as the batch writer checks): no partition is
-- ever made for the year 275760, whoever asks.
CREATE OR REPLACE FUNCTION lampyr_ensure_reading_partition(at timestamptz) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
  month_start timestamptz;
  name text;
BEGIN
  IF at IS NULL OR at < timestamptz '2000-01-01 00:00:00+00'
     OR at >= (date_trunc('year', now() AT TIME ZONE 'UTC') + interval '2 years') AT TIME ZONE 'UTC' THEN
    RAISE EXCEPTION 'no readings are kept for %', at USING ERRCODE = '22008';
  END IF;
  month_start := date_trunc('month', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  name := 'channel_read_values_' || to_char(month_start AT TIME ZONE 'UTC', 'YYYY_MM');
  IF to_regclass(name) IS NULL THEN
    EXECUTE format(
      'CREATE TABLE IF NOT EXISTS %I PARTITION OF channel_read_values FOR VALUES FROM (%L) TO (%L)',
      name, month_start, month_start + interval '1 month');
  END IF;
  RETURN name;
END;
$$;
