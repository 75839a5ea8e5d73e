// A crawl's lab_pages (docs/lab.md, "Lab audits of a crawl"): how many of its pages get a lab audit.
// Audits take seconds each and run one at a time, so a crawl makes a few hundred at most.
export const CRAWL_LAB_LIMITS = { minPages: 1, maxPages: 200, defaultPages: 20 } as const;
