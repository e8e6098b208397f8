ALTER TABLE "device_connection_status" ADD COLUMN "battery_level" double precision;--> statement-breakpoint
ALTER TABLE "device_connection_status" ADD COLUMN "external_power" boolean;--> statement-breakpoint
ALTER TABLE "device_connection_status" ADD COLUMN "link_margin" double precision;--> statement-breakpoint
ALTER TABLE "device_connection_status" ADD COLUMN "health_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "device_connection_status" ADD COLUMN "gateway_eui" text;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "last_seen_at" timestamp with time zone;