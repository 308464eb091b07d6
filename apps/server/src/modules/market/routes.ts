import { marketRoutes as api, onlyWithOptions } from '@pfp/contract';
import { serve } from '../../platform/http/route';
import type { Capability } from '../context';
import { futuresWithOptions, listExchanges, listFutures, listProducts } from '../../market/catalogue';

/** SPEC §7 "Market filter calls": public, read-only, from the instrument catalogue. */
export const market: Capability = {
  open(app) {
    const tags = ['market'];

    serve(
      app,
      api.exchangeList,
      ({ query }) => {
        const all = listExchanges();
        return onlyWithOptions(query.options) ? all.filter((ex) => listProducts(ex).some((p) => p.option)) : all;
      },
      { tags },
    );

    serve(
      app,
      api.productList,
      ({ query }) =>
        listProducts(query.exchange_id)
          .filter((p) => !onlyWithOptions(query.options) || p.option)
          .map((p) => p.id),
      { tags },
    );

    serve(
      app,
      api.futureList,
      ({ query }) =>
        (onlyWithOptions(query.options)
          ? futuresWithOptions(query.exchange_id, query.product_id)
          : listFutures(query.exchange_id, query.product_id)
        ).map((f) => f.symbol),
      { tags },
    );
  },
};
