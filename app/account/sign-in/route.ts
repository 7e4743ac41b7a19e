import { routeMethods } from "@/lib/http/api-route";
import { accountSignInRoute } from "@/lib/account-page/account-routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: accountSignInRoute });
