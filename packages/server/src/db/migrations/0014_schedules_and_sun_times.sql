CREATE TABLE "task_group_members" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "task_group_members_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"account_id" bigint NOT NULL,
	"task_group_id" bigint NOT NULL,
	"device_id" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sunset_sunrises" DROP CONSTRAINT "sunset_sunrises_city_id_cities_id_fk";
--> statement-breakpoint
ALTER TABLE "sunset_sunrises" ALTER COLUMN "sunrise" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sunset_sunrises" ALTER COLUMN "sunset" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "cities" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "countries" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "countries" ADD COLUMN "iso_code" text;--> statement-breakpoint
ALTER TABLE "sunset_sunrises" ADD COLUMN "dawn" time;--> statement-breakpoint
ALTER TABLE "sunset_sunrises" ADD COLUMN "dusk" time;--> statement-breakpoint
ALTER TABLE "sunset_sunrises" ADD COLUMN "nautical_dawn" time;--> statement-breakpoint
ALTER TABLE "sunset_sunrises" ADD COLUMN "nautical_dusk" time;--> statement-breakpoint
ALTER TABLE "sunset_sunrises" ADD COLUMN "polar_day" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sunset_sunrises" ADD COLUMN "polar_night" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sunset_sunrises" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "task_control_logs" ADD COLUMN "device_id" bigint;--> statement-breakpoint
ALTER TABLE "task_control_logs" ADD COLUMN "task_group_id" bigint;--> statement-breakpoint
ALTER TABLE "task_control_logs" ADD COLUMN "pairing_id" bigint;--> statement-breakpoint
ALTER TABLE "task_control_logs" ADD COLUMN "timing_id" bigint;--> statement-breakpoint
ALTER TABLE "task_control_logs" ADD COLUMN "planned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "task_control_logs" ADD COLUMN "level" integer;--> statement-breakpoint
ALTER TABLE "task_control_logs" ADD COLUMN "status" text;--> statement-breakpoint
ALTER TABLE "task_control_logs" ADD COLUMN "channel_write_value_id" bigint;--> statement-breakpoint
ALTER TABLE "task_control_logs" ADD COLUMN "message" text;--> statement-breakpoint
ALTER TABLE "task_profile_timings" ADD COLUMN "on1_offset" integer;--> statement-breakpoint
ALTER TABLE "task_profile_timings" ADD COLUMN "off1_offset" integer;--> statement-breakpoint
ALTER TABLE "task_profile_timings" ADD COLUMN "on2_offset" integer;--> statement-breakpoint
ALTER TABLE "task_profile_timings" ADD COLUMN "off2_offset" integer;--> statement-breakpoint
ALTER TABLE "task_profile_timings" ADD COLUMN "on3_offset" integer;--> statement-breakpoint
ALTER TABLE "task_profile_timings" ADD COLUMN "off3_offset" integer;--> statement-breakpoint
ALTER TABLE "task_profile_timings" ADD COLUMN "on4_offset" integer;--> statement-breakpoint
ALTER TABLE "task_profile_timings" ADD COLUMN "off4_offset" integer;--> statement-breakpoint
ALTER TABLE "task_profiles" ADD COLUMN "custom_dates" jsonb;--> statement-breakpoint
ALTER TABLE "task_group_members" ADD CONSTRAINT "task_group_members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_group_members" ADD CONSTRAINT "task_group_members_task_group_id_task_groups_id_fk" FOREIGN KEY ("task_group_id") REFERENCES "public"."task_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_group_members" ADD CONSTRAINT "task_group_members_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "task_group_members_task_group_id_device_id_index" ON "task_group_members" USING btree ("task_group_id","device_id");--> statement-breakpoint
CREATE INDEX "task_group_members_account_id_device_id_index" ON "task_group_members" USING btree ("account_id","device_id");--> statement-breakpoint
ALTER TABLE "sunset_sunrises" ADD CONSTRAINT "sunset_sunrises_city_id_cities_id_fk" FOREIGN KEY ("city_id") REFERENCES "public"."cities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "task_control_logs_device_id_planned_at_index" ON "task_control_logs" USING btree ("device_id","planned_at");--> statement-breakpoint
-- Databases seeded before countries had codes and zones: Türkiye gets its own (holidays, sun times).
UPDATE "countries" SET "iso_code" = 'TR' WHERE "name" = 'Türkiye' AND "iso_code" IS NULL;--> statement-breakpoint
UPDATE "countries" SET "time_zone" = 'Europe/Istanbul' WHERE "name" = 'Türkiye' AND "time_zone" IS NULL;
