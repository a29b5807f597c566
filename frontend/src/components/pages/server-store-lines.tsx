import type { KnowledgeStatusReply } from "@mini-openclaw/protocol";
import { useTranslation } from "react-i18next";
import { WarningLine } from "@/components/ui/problem-card";

/** Where a server-stored index lives, who indexes its collection, and whether the server can be reached. */
export function ServerStoreLines({ store }: { store: KnowledgeStatusReply["store"] }) {
  const { t } = useTranslation();
  return (
    <div data-testid="knowledge-store" className="space-y-0.5">
      <div className="break-all">{t("knowledge.storeServer", { location: store.location, collection: store.collection ?? "" })}</div>
      <div>{store.vectors === "pgvector" ? t("knowledge.storeVectorsPgvector") : t("knowledge.storeVectorsStored")}</div>
      {store.indexer && <div data-testid="knowledge-indexer">{store.indexer.self ? t("knowledge.indexedHere") : t("knowledge.indexedBy", { host: store.indexer.host, pid: store.indexer.pid })}</div>}
      {store.note && <div data-testid="knowledge-store-note" className="text-zinc-500">{store.note}</div>}
      {!store.connected && store.error && <WarningLine text={t("knowledge.storeDown", { detail: store.error })} />}
    </div>
  );
}
