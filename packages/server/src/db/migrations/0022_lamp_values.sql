CREATE TABLE "device_lamp_values" (
	"device_id" bigint PRIMARY KEY NOT NULL,
	"account_id" bigint NOT NULL,
	"lamp" double precision,
	"lamp_at" timestamp with time zone,
	"dim" double precision,
	"dim_at" timestamp with time zone,
	"power" double precision,
	"power_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "device_lamp_values" ADD CONSTRAINT "device_lamp_values_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_lamp_values" ADD CONSTRAINT "device_lamp_values_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- device_lamp_values is kept by the database, so every writer of channel_values keeps it (the
-- ingest, the demo history, bench seeds, tests): each statement's new or updated latest values pass
-- once through one set-based upsert. A column takes the newest reading among the device's channels
-- (sub-channel 0) of its code (of two at one time, the larger), and only one at least as new as what
-- it holds (per column time: a channel rewritten at its time is taken, an older reading is not).
CREATE FUNCTION lampyr_keep_lamp_values() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO device_lamp_values AS d (device_id, account_id, lamp, lamp_at, dim, dim_at, power, power_at)
  SELECT device_id, min(account_id),
         min(value) FILTER (WHERE code = 'lamp'), min(date_time) FILTER (WHERE code = 'lamp'),
         min(value) FILTER (WHERE code = 'dim'), min(date_time) FILTER (WHERE code = 'dim'),
         min(value) FILTER (WHERE code = 'power'), min(date_time) FILTER (WHERE code = 'power')
  FROM (
    SELECT DISTINCT ON (v.device_id, t.channel_code) v.device_id, v.account_id, t.channel_code AS code, v.value, v.date_time
    FROM new_values v JOIN device_channel_templates t ON t.id = v.device_channel_template_id
    WHERE v.sub_channel = 0 AND t.channel_code IN ('lamp', 'dim', 'power')
    ORDER BY v.device_id, t.channel_code, v.date_time DESC, v.value DESC
  ) newest
  GROUP BY device_id
  -- Rows locked in one order, as the writers lock channel_values'.
  ORDER BY device_id
  ON CONFLICT (device_id) DO UPDATE SET
    account_id = excluded.account_id,
    lamp = CASE WHEN excluded.lamp_at >= coalesce(d.lamp_at, '-infinity') THEN excluded.lamp ELSE d.lamp END,
    lamp_at = CASE WHEN excluded.lamp_at >= coalesce(d.lamp_at, '-infinity') THEN excluded.lamp_at ELSE d.lamp_at END,
    dim = CASE WHEN excluded.dim_at >= coalesce(d.dim_at, '-infinity') THEN excluded.dim ELSE d.dim END,
    dim_at = CASE WHEN excluded.dim_at >= coalesce(d.dim_at, '-infinity') THEN excluded.dim_at ELSE d.dim_at END,
    power = CASE WHEN excluded.power_at >= coalesce(d.power_at, '-infinity') THEN excluded.power ELSE d.power END,
    power_at = CASE WHEN excluded.power_at >= coalesce(d.power_at, '-infinity') THEN excluded.power_at ELSE d.power_at END
  -- Nothing newer: the row is left as it is (no new row version).
  WHERE excluded.lamp_at >= coalesce(d.lamp_at, '-infinity') OR excluded.dim_at >= coalesce(d.dim_at, '-infinity')
     OR excluded.power_at >= coalesce(d.power_at, '-infinity');
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- The rows of some devices worked out again from channel_values: after a template changed its code
-- or latest values were deleted (a template's, by its cascade), when no newer-wins rule can say
-- what a column should now hold. Also the backfill.
CREATE FUNCTION lampyr_recompute_lamp_values(ids bigint[]) RETURNS void
LANGUAGE sql AS $$
  DELETE FROM device_lamp_values WHERE device_id = ANY(ids);
  INSERT INTO device_lamp_values (device_id, account_id, lamp, lamp_at, dim, dim_at, power, power_at)
  SELECT device_id, min(account_id),
         min(value) FILTER (WHERE code = 'lamp'), min(date_time) FILTER (WHERE code = 'lamp'),
         min(value) FILTER (WHERE code = 'dim'), min(date_time) FILTER (WHERE code = 'dim'),
         min(value) FILTER (WHERE code = 'power'), min(date_time) FILTER (WHERE code = 'power')
  FROM (
    SELECT DISTINCT ON (v.device_id, t.channel_code) v.device_id, v.account_id, t.channel_code AS code, v.value, v.date_time
    FROM channel_values v JOIN device_channel_templates t ON t.id = v.device_channel_template_id
    WHERE v.device_id = ANY(ids) AND v.sub_channel = 0 AND t.channel_code IN ('lamp', 'dim', 'power')
    ORDER BY v.device_id, t.channel_code, v.date_time DESC, v.value DESC
  ) newest
  GROUP BY device_id
  ORDER BY device_id;
$$;--> statement-breakpoint
-- A template whose code becomes or stops being lamp, dim or power: its devices' rows again.
CREATE FUNCTION lampyr_template_code_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  changed bigint[];
BEGIN
  SELECT array_agg(n.id) INTO changed
  FROM old_templates o JOIN new_templates n ON n.id = o.id
  WHERE n.channel_code IS DISTINCT FROM o.channel_code
    AND (o.channel_code IN ('lamp', 'dim', 'power') OR n.channel_code IN ('lamp', 'dim', 'power'));
  IF changed IS NOT NULL THEN
    PERFORM lampyr_recompute_lamp_values(array(
      SELECT DISTINCT device_id FROM channel_values WHERE device_channel_template_id = ANY(changed) AND sub_channel = 0));
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- Deleted latest values (a template's, by the cascade of its deletion): their devices' rows again.
-- A trigger on the templates would come too late: the cascade has already taken the values that
-- say which devices had the template.
CREATE FUNCTION lampyr_lamp_values_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM lampyr_recompute_lamp_values(array(SELECT DISTINCT device_id FROM old_values WHERE sub_channel = 0));
  RETURN NULL;
END;
$$;--> statement-breakpoint
-- Transition tables need one trigger per event. The triggers come before the backfill: creating
-- them locks channel_values against writes until this migration commits, so none is missed.
CREATE TRIGGER channel_values_lamp_insert AFTER INSERT ON channel_values
  REFERENCING NEW TABLE AS new_values FOR EACH STATEMENT EXECUTE FUNCTION lampyr_keep_lamp_values();--> statement-breakpoint
CREATE TRIGGER channel_values_lamp_update AFTER UPDATE ON channel_values
  REFERENCING NEW TABLE AS new_values FOR EACH STATEMENT EXECUTE FUNCTION lampyr_keep_lamp_values();--> statement-breakpoint
CREATE TRIGGER channel_values_lamp_delete AFTER DELETE ON channel_values
  REFERENCING OLD TABLE AS old_values FOR EACH STATEMENT EXECUTE FUNCTION lampyr_lamp_values_deleted();--> statement-breakpoint
CREATE TRIGGER device_channel_templates_lamp_code AFTER UPDATE ON device_channel_templates
  REFERENCING OLD TABLE AS old_templates NEW TABLE AS new_templates
  FOR EACH STATEMENT EXECUTE FUNCTION lampyr_template_code_changed();--> statement-breakpoint
SELECT lampyr_recompute_lamp_values(array(SELECT id FROM devices));
