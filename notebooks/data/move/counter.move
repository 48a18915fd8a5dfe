module 0xe5a8c86bd15a035f4d5fcfc1ef37f664ef71f00c4ec940236951820f836c321d::counter {
    use std::signer;
    use aptos_framework::event;

    struct Counter has key {
        value: u64,
    }

    #[event]
    struct Incremented has drop, store {
        account: address,
        value: u64,
    }

    public entry fun increment(account: &signer) acquires Counter {
        let addr = signer::address_of(account);
        if (!exists<Counter>(addr)) {
            move_to(account, Counter { value: 0 });
        };
        let counter = borrow_global_mut<Counter>(addr);
        counter.value = counter.value + 1;
        event::emit(Incremented { account: addr, value: counter.value });
    }

    #[view]
    public fun get(addr: address): u64 acquires Counter {
        if (!exists<Counter>(addr)) return 0;
        borrow_global<Counter>(addr).value
    }
}
