ALTER TABLE "gateways" ADD COLUMN "stats_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "rx_packets_received" integer;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "rx_packets_received_ok" integer;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "tx_packets_received" integer;--> statement-breakpoint
ALTER TABLE "gateways" ADD COLUMN "tx_packets_emitted" integer;