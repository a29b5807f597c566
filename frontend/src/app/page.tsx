import { Workbench } from "@/components/workbench";

export default function Page() {
  return <Workbench />;
}
